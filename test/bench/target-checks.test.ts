import { describe, expect, it } from "vitest";
import { httpScenario, loadResult, webhookPhase } from "./bench-fixtures.js";
import { checkBatch, checkStatementDownload, checkTargets } from "./target-checks.js";

describe("checkTargets", () => {
  it("checks each performance target against the measured figures", () => {
    // Fixture CPU: 14.72 s over every process but the load generator, so CPU ms/request = 14,720 / requests.
    const checks = checkTargets(
      [
        httpScenario("lookupPaymentCode", loadResult(700, 20)),
        httpScenario("getQuotation", loadResult(5000, 60)),
        httpScenario("listTransactions", loadResult(1000)),
        httpScenario("executePayout", loadResult(500, 20, { unintendedErrors: 2, intendedErrors: 25 }), {
          name: "pgbench tpcb-like",
          ratio: 0.26,
        }),
      ],
      [
        webhookPhase("burst", { deliveriesPerSecond: 900 }),
        webhookPhase("sustained", { eventToAckMs: { p50: 40, p99: 200, max: 450 } }),
      ],
      { gateway: 150, ledger: 210, embedded: 390 },
    );
    const met = Object.fromEntries(checks.map((c) => [c.target, c.met]));
    expect(met).toEqual({
      "lookupPaymentCode ≥ 600 req/s": true,
      "lookupPaymentCode ≤ 2.5 ms CPU per request (all processes)": true,
      "getQuotation ≥ 600 req/s": true,
      "getQuotation ≤ 2.5 ms CPU per request (all processes)": true,
      "listTransactions ≤ 1.5 ms CPU per request (all processes)": true,
      "executePayout ≥ 400 req/s": true,
      "executePayout ≤ 4 ms CPU per request (all processes)": true,
      "executePayout ≥ 25 % of pgbench tpcb-like tps": true,
      "executePayout: no errors other than the intended ones": false,
      "lookupPaymentCode p99 ≤ 4 × p50": true,
      "getQuotation p99 ≤ 4 × p50": true,
      "executePayout p99 ≤ 4 × p50": true,
      "listTransactions p99 ≤ 4 × p50": true,
      "sustained: p99 event-to-2xx ≤ 250 ms at 1000 deliveries/s offered for 5 s": true,
      "burst: 5000 deliveries queued at once drain at ≥ 2,000 deliveries/s": false,
      "webhooks, every phase: nothing lost or unexpected, every signature valid (a duplicate is allowed: the same event id again, at-least-once)": true,
      "each service's RSS ≤ 150 MB under load": false,
      "embedded mode RSS ≤ 400 MB": true,
    });
    expect(checks.find((c) => c.target.startsWith("each service"))?.measured).toBe("highest 210 MB (ledger)");
    expect(checks.find((c) => c.target.startsWith("lookupPaymentCode ≤"))?.measured).toBe("2.10 ms");
  });

  it("misses the CPU and throughput targets of a slow, costly endpoint and a long tail", () => {
    const slow = { ...loadResult(300, 100), latencyMs: { p50: 20, p90: 60, p99: 100, max: 200 } };
    const checks = checkTargets([httpScenario("getQuotation", slow)], [], {});
    const met = Object.fromEntries(checks.map((c) => [c.target, c.met]));
    expect(met).toEqual({
      "getQuotation ≥ 600 req/s": false,
      "getQuotation ≤ 2.5 ms CPU per request (all processes)": false,
      "getQuotation p99 ≤ 4 × p50": false,
    });
    expect(checks.find((c) => c.target.endsWith("4 × p50"))?.measured).toBe("p99 100 ms, p50 20 ms (5.0 ×)");
  });

  it("checks previewQuotations against the best one-hop floor when floors ran", () => {
    const preview = httpScenario("previewQuotations", loadResult(900));
    const floor = (ratio: number) =>
      checkTargets([{ ...preview, floor: { name: "floor: x", ratio } }], [], {}).find((c) =>
        c.target.includes("one-hop floor"),
      );
    expect(floor(0.61)).toMatchObject({ measured: "61 % of floor: x", met: true });
    expect(floor(0.59)?.met).toBe(false);
    expect(checkTargets([preview], [], {}).some((c) => c.target.includes("floor"))).toBe(false);
  });
});

describe("checkStatementDownload", () => {
  const download = {
    lines: 100_000,
    received: 100_000,
    bytes: 19e6,
    seconds: 4,
    linesPerSecond: 25_000,
    seedSeconds: 30,
    rssBeforeMb: 100,
    rssPeakMb: 130,
  };

  it("holds lines/s to 20,000 and the gateway's RSS rise to under 50 MB", () => {
    expect(checkStatementDownload(download).map((c) => [c.measured, c.met])).toEqual([
      ["25000 lines/s (100000 lines in 4.00 s)", true],
      ["30.0 MB (100 → 130 MB)", true],
    ]);
    const slow = checkStatementDownload({ ...download, seconds: 10, linesPerSecond: 10_000, rssPeakMb: 150 });
    expect(slow.map((c) => c.met)).toEqual([false, false]);
  });

  it("is not met when lines are missing or the resident set could not be read", () => {
    const { rssPeakMb: _, ...unread } = download;
    const checks = checkStatementDownload({ ...unread, received: 99_999 });
    expect(checks.map((c) => c.met)).toEqual([false, false]);
    expect(checks[1]?.measured).toBe("not readable");
    const failed = checkStatementDownload({
      ...download,
      received: 0,
      seconds: 15.2,
      failure: "answered 503",
    });
    expect(failed[0]).toMatchObject({ measured: "failed after 15.2 s: answered 503", met: false });
  });
});

describe("checkBatch", () => {
  const batch = {
    items: 300,
    validationSeconds: 2,
    acceptedSeconds: 1.5,
    acceptedPerSecond: 200,
    completedSeconds: 6,
    singlePayouts: 75,
    singleConcurrency: 50,
    singlePerSecond: 240,
    ratio: 200 / 240,
  };

  it("holds the batch's items accepted/s to 80 % of the single executePayout rate of the run", () => {
    expect(checkBatch(batch)).toEqual({
      target: "batch of 300: items accepted/s ≥ 80 % of single executePayout/s",
      measured: "83 % (200 items/s vs 240 payouts/s)",
      met: true,
    });
    expect(checkBatch({ ...batch, acceptedPerSecond: 150, ratio: 150 / 240 }).met).toBe(false);
  });
});
