import { describe, expect, it } from "vitest";
import { benchResults, httpScenario, loadResult, noisyNeighbour, webhookPhase } from "./bench-fixtures.js";
import { withBestFloor } from "./one-hop-floor.js";
import { busiest, cpuPerRequest, floorPercent, renderMarkdown, rss } from "./results-report.js";

describe("renderMarkdown", () => {
  const results = benchResults({
    http: [httpScenario("previewQuotations", loadResult(4321, 42), { name: "node:http", ratio: 0.1234 })],
    webhooks: [
      webhookPhase("sustained", {
        windows: [
          { fromSecond: 0, deliveries: 60_000, p50: 21.5, p99: 120 },
          { fromSecond: 60, deliveries: 59_000, p50: 7.25, p99: 130 },
        ],
      }),
    ],
    noisyNeighbour: noisyNeighbour({ rowsByStatus: { delivered: 199_990, pending: 10 }, arrived: 199_990 }),
    targets: [{ target: "webhook p99 ≤ 500 ms", measured: "300 ms", met: true }],
  });
  const markdown = renderMarkdown(results);

  it("describes the machine and the versions", () => {
    expect(markdown).toContain("2 × AMD EPYC, 23.5 GB RAM");
    expect(markdown).toContain("Node v20.20.2; PostgreSQL 15.18; Apache Kafka 3.9.1");
  });

  it("writes one row per scenario with throughput, latencies, ratio, CPU and RSS", () => {
    expect(markdown).toContain(
      "| previewQuotations | distributed | 4321 | 21 | 42 | 43210 | 0 | 0 | 12.3 % of node:http | — | 0.34 | gateway 95, bench 60, pricing 40 | gateway 120, pricing 90 |",
    );
  });

  it("writes the pgbench baselines, the webhook phases, the peaks and the targets", () => {
    expect(markdown).toContain("| pgbench tpcb-like (10 clients) | baseline | 6667 tps | 1.2 | 3.7 |");
    expect(markdown).toContain(
      "| sustained | 1000 | 200 | 1000 | 5 | 5000 | 1200 | 40 | 300 | 450 | 0 | 0 | 0 | 0 | 0 | 0.80 |",
    );
    expect(markdown).toContain("| gateway | 130 |");
    expect(markdown).toContain("| webhook p99 ≤ 500 ms | 300 ms | yes |");
    expect(markdown).toContain("None: no unintended errors, no crashes.");
  });

  it("writes the sustained phase's latency per window and the noisy neighbour's backlog and drain", () => {
    expect(markdown).toContain("#### sustained: event→2xx per window (by publish time)");
    expect(markdown).toContain("| 0 | 60000 | 22 | 120 |");
    expect(markdown).toContain("| 60 | 59000 | 7.3 | 130 |");
    expect(markdown).toContain(
      "A's backlog: 20000 signed events (3334 transactions with two events) × 10 configs = 200000 deliveries, published in 4.2 s; 200000 delivery rows stored 31.5 s after the first publish.",
    );
    expect(markdown).toContain(
      "199990 of 200000 of A's deliveries arrived in 125.0 s (1600 deliveries/s; the wait ended: all arrived). Per-transaction order: 0 of 33340 (transaction, receiver) pairs out of order. A's delivery rows when the wait ended: delivered 199990, pending 10.",
    );
  });

  it("states the PostgreSQL settings the run read back from the server", () => {
    expect(markdown).toContain(
      "PostgreSQL settings (read back from the server, pgbench and the platform alike): fsync=on, synchronous_commit=on, full_page_writes=on, wal_level=replica (durable).",
    );
    const fast = renderMarkdown(
      benchResults({
        postgresSettings: {
          fsync: "off",
          synchronous_commit: "off",
          full_page_writes: "off",
          wal_level: "minimal",
        },
      }),
    );
    expect(fast).toContain(
      "fsync=off, synchronous_commit=off, full_page_writes=off, wal_level=minimal (NOT durable: fsync, synchronous_commit, full_page_writes not on).",
    );
  });

  it("reports each one-hop floor and every partner endpoint as a percentage of the best floor", () => {
    const http = withBestFloor([
      httpScenario("floor: connect-node gRPC over h2c", loadResult(1200, 80), undefined, "floor"),
      httpScenario("floor: Connect binary over HTTP/1.1", loadResult(2400, 40), undefined, "floor"),
      httpScenario("previewQuotations", loadResult(600, 120), { name: "node:http", ratio: 0.02 }),
    ]);
    const report = renderMarkdown(benchResults({ http }));
    expect(report).toContain("### One-hop floor");
    // CPU: (9.52 + 4 + 1.2) s over 12000 and 24000 requests.
    expect(report).toContain("| floor: connect-node gRPC over h2c | 1200 | 1.23 | 80 | 50.0 % |");
    expect(report).toContain("| floor: Connect binary over HTTP/1.1 | 2400 | 0.61 | 40 | 100.0 % |");
    expect(report).toContain(
      "| previewQuotations | distributed | 600 | 60 | 120 | 6000 | 0 | 0 | 2.0 % of node:http | 25.0 % | 2.45 |",
    );
  });

  it("writes a row per statement format, and no section when none ran", () => {
    const rendered = renderMarkdown(
      benchResults({
        statementRender: [
          {
            format: "csv",
            lines: 100_000,
            bytes: 19_200_000,
            seconds: 2.5,
            linesPerSecond: 40_000,
            rssRiseMb: 12.34,
          },
        ],
      }),
    );
    expect(rendered).toContain("### Statement rendering");
    expect(rendered).toContain("| csv | 100000 | 19.2 | 2.50 | 40000 | 12.3 |");
    expect(markdown).not.toContain("Statement rendering");
  });

  it("has no floor section when no floor ran", () => {
    expect(markdown).not.toContain("One-hop floor");
    expect(floorPercent(httpScenario("x", loadResult(1)))).toBe("—");
  });

  it("lists problems and flags runs whose inputs ran out", () => {
    const failing = renderMarkdown(
      benchResults({
        http: [httpScenario("executePayout", loadResult(100, 10, { exhausted: true }))],
        problems: ["executePayout: 3 unintended errors"],
      }),
    );
    expect(failing).toContain("| executePayout (inputs ran out) |");
    expect(failing).toContain("- executePayout: 3 unintended errors");
    expect(failing).not.toContain("None: no unintended errors");
  });
});

describe("busiest and rss", () => {
  it("CPU per request counts the platform and PostgreSQL, not the load generator", () => {
    // (9.52 + 4 + 1.2) s over 43210 requests
    expect(cpuPerRequest(httpScenario("x", loadResult(4321)))).toBe("0.34");
  });

  it("names the three busiest processes and the platform's peaks only", () => {
    const processes = httpScenario("x", loadResult(1)).processes;
    expect(busiest(processes)).toBe("gateway 95, bench 60, pricing 40");
    expect(rss(processes)).toBe("gateway 120, pricing 90");
    expect(busiest([])).toBe("—");
  });
});
