import { describe, expect, it } from "vitest";
import { httpScenario, loadResult, webhookPhase } from "./bench-fixtures.js";
import { checkTargets } from "./target-checks.js";

describe("checkTargets", () => {
  it("checks each stretch target against the measured figures", () => {
    const checks = checkTargets(
      [
        httpScenario("previewQuotations", loadResult(4000, 60), { name: "node:http", ratio: 0.4 }),
        httpScenario("lookupPaymentCode", loadResult(1000), { name: "pgbench single-insert", ratio: 0.05 }),
        httpScenario("executePayout", loadResult(500, 20, { unintendedErrors: 2, intendedErrors: 25 }), {
          name: "pgbench tpcb-like",
          ratio: 0.41,
        }),
      ],
      [webhookPhase("burst", { deliveriesPerSecond: 900 }), webhookPhase("paced")],
      { gateway: 150, ledger: 210, embedded: 390 },
    );
    const met = Object.fromEntries(checks.map((c) => [c.target, c.met]));
    expect(met).toEqual({
      "previewQuotations ≥ 35 % of node:http req/s": true,
      "previewQuotations p99 ≤ 50 ms at 50 connections": false,
      "lookupPaymentCode ≥ 50 % of pgbench single-insert tps": false,
      "executePayout ≥ 40 % of pgbench tpcb-like tps": true,
      "executePayout: no errors other than the intended ones": false,
      "webhook burst of 5000 deliveries drains at ≥ 1,500 deliveries/s": false,
      "webhook p99 event-to-2xx ≤ 500 ms at 1000 deliveries/s offered for 5 s": true,
      "webhooks: nothing lost or duplicated (per event and receiver), every signature valid": true,
      "each service's RSS ≤ 200 MB under load": false,
      "embedded mode RSS ≤ 400 MB": true,
    });
    expect(checks.find((c) => c.target.startsWith("each service"))?.measured).toBe("highest 210 MB (ledger)");
    expect(checks.find((c) => c.target.startsWith("lookup"))?.measured).toBe("5.0 % (1000 req/s)");
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

  it("a paced phase with missing deliveries does not meet the latency target", () => {
    const [check] = checkTargets([], [webhookPhase("paced", { missing: 3 })], {});
    expect(check?.met).toBe(false);
  });

  it("a duplicate, an unexpected event or a bad signature in any phase fails the audit", () => {
    const audit = (fields: Parameters<typeof webhookPhase>[1]) =>
      checkTargets([], [webhookPhase("burst"), webhookPhase("paced", fields)], {}).find((c) =>
        c.target.startsWith("webhooks: nothing lost"),
      );
    expect(audit({})).toMatchObject({
      met: true,
      measured: "0 missing, 0 duplicates, 0 unexpected, 0 bad signatures",
    });
    expect(audit({ duplicates: 1 })?.met).toBe(false);
    expect(audit({ unexpected: 2 })?.met).toBe(false);
    expect(audit({ badSignatures: 1 })?.met).toBe(false);
  });
});
