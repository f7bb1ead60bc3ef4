import { describe, expect, it } from "vitest";
import { benchResults, httpScenario, loadResult, webhookPhase } from "./bench-fixtures.js";
import { busiest, cpuPerRequest, renderMarkdown, rss } from "./results-report.js";

describe("renderMarkdown", () => {
  const results = benchResults({
    http: [httpScenario("previewQuotations", loadResult(4321, 42), { name: "node:http", ratio: 0.1234 })],
    webhooks: [webhookPhase("paced")],
    targets: [{ target: "webhook p99 ≤ 500 ms", measured: "300 ms", met: true }],
  });
  const markdown = renderMarkdown(results);

  it("describes the machine and the versions", () => {
    expect(markdown).toContain("2 × AMD EPYC, 23.5 GB RAM");
    expect(markdown).toContain("Node v20.20.2; PostgreSQL 15.18; Apache Kafka 3.9.1");
  });

  it("writes one row per scenario with throughput, latencies, ratio, CPU and RSS", () => {
    expect(markdown).toContain(
      "| previewQuotations | distributed | 4321 | 21 | 42 | 43210 | 0 | 0 | 12.3 % of node:http | 0.34 | gateway 95, bench 60, pricing 40 | gateway 120, pricing 90 |",
    );
  });

  it("writes the pgbench baselines, the webhook phases, the peaks and the targets", () => {
    expect(markdown).toContain("| pgbench tpcb-like (10 clients) | baseline | 6667 tps | 1.2 | 3.7 |");
    expect(markdown).toContain("| paced | 1000 | 200 | 5 | 5000 | 1200 | 40 | 300 | 0 | 0 |");
    expect(markdown).toContain("| gateway | 130 |");
    expect(markdown).toContain("| webhook p99 ≤ 500 ms | 300 ms | yes |");
    expect(markdown).toContain("None: no unintended errors, no crashes.");
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
