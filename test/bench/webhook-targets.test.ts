import { describe, expect, it } from "vitest";
import { noisyNeighbour, webhookPhase } from "./bench-fixtures.js";
import { NOISY_PHASES } from "./bench-results.js";
import { checkWebhookTargets } from "./webhook-targets.js";

const latency = (p50: number, p99: number) => ({ eventToAckMs: { p50, p99, max: p99 * 2 } });

function met(checks: ReturnType<typeof checkWebhookTargets>): Record<string, boolean> {
  return Object.fromEntries(checks.map((c) => [c.target, c.met]));
}

describe("checkWebhookTargets", () => {
  it("holds B beside A's backlog to 250 ms p99, 50 ms p50 and 1.2 × the CPU per delivery of B alone", () => {
    const checks = checkWebhookTargets([
      webhookPhase(NOISY_PHASES.alone, { ...latency(8, 40), cpuMsPerDelivery: 1 }),
      webhookPhase(NOISY_PHASES.refused, { ...latency(20, 240), cpuMsPerDelivery: 1.19 }),
      webhookPhase(NOISY_PHASES.silent, { ...latency(60, 200), cpuMsPerDelivery: 1.3 }),
    ]);
    expect(met(checks)).toMatchObject({
      "noisy neighbour, A's receivers refuse connections: B's p99 event-to-2xx ≤ 250 ms and p50 ≤ 50 ms at 1000 deliveries/s": true,
      "noisy neighbour, A's receivers refuse connections: B's CPU per delivery ≤ 1.2 × B alone (all processes)": true,
      "noisy neighbour, A's receivers never answer: B's p99 event-to-2xx ≤ 250 ms and p50 ≤ 50 ms at 1000 deliveries/s": false,
      "noisy neighbour, A's receivers never answer: B's CPU per delivery ≤ 1.2 × B alone (all processes)": false,
    });
    expect(checks.find((c) => c.target.includes("never answer: B's CPU"))?.measured).toBe(
      "1.30 ms against 1.00 ms (1.30 ×)",
    );
  });

  it("checks A's drain rate, its order, that nothing of it was lost, and B's p99 during the drain", () => {
    const drainB = webhookPhase(NOISY_PHASES.drainB, latency(30, 450));
    const targets = (drain: Parameters<typeof noisyNeighbour>[0]) =>
      met(checkWebhookTargets([drainB], noisyNeighbour(drain)));
    expect(targets({})).toEqual({
      "recovery: A's backlog of 200000 deliveries drains at ≥ 1,000 deliveries/s (at least 99 % of it arrived)": true,
      "recovery: A's deliveries arrive in per-transaction order": true,
      "recovery: nothing of A's backlog lost (every delivery arrived or is still scheduled, none dead)": true,
      "recovery: B's p99 event-to-2xx ≤ 500 ms during A's drain at 1000 deliveries/s": true,
      "webhooks, every phase: nothing lost or unexpected, every signature valid (a duplicate is allowed: the same event id again, at-least-once)": true,
    });
    // Fast, and a few wait for a scheduled retry: the rate counts, and still pending is not lost.
    const rate =
      "recovery: A's backlog of 200000 deliveries drains at ≥ 1,000 deliveries/s (at least 99 % of it arrived)";
    const lost =
      "recovery: nothing of A's backlog lost (every delivery arrived or is still scheduled, none dead)";
    const stalled = targets({
      arrived: 199_990,
      ended: "stalled",
      rowsByStatus: { delivered: 199_990, pending: 10 },
    });
    expect(stalled[rate]).toBe(true);
    expect(stalled[lost]).toBe(true);
    // Fast while it lasted, but half of it never came: not drained.
    expect(targets({ arrived: 100_000, ended: "stalled" })[rate]).toBe(false);
    expect(targets({ deliveriesPerSecond: 999 })[rate]).toBe(false);
    expect(
      targets({ rowsByStatus: { delivered: 199_999, dead: 1 } })[
        "recovery: nothing of A's backlog lost (every delivery arrived or is still scheduled, none dead)"
      ],
    ).toBe(false);
    expect(targets({ outOfOrder: 1 })["recovery: A's deliveries arrive in per-transaction order"]).toBe(
      false,
    );
    expect(
      targets({ transactionsChecked: 0 })["recovery: A's deliveries arrive in per-transaction order"],
    ).toBe(false);
  });

  it("holds the sustained load to 250 ms p99 and its last window to 1.5 × the first", () => {
    const windows = (last: number) => [
      { fromSecond: 0, deliveries: 60_000, p50: 20, p99: 100 },
      { fromSecond: 60, deliveries: 60_000, p50: 20, p99: 120 },
      { fromSecond: 120, deliveries: 60_000, p50: 20, p99: last },
    ];
    const drift = (last: number) =>
      checkWebhookTargets([webhookPhase("sustained", { ...latency(20, 200), windows: windows(last) })]).find(
        (c) => c.target.startsWith("sustained: the last window"),
      );
    expect(drift(150)).toMatchObject({
      met: true,
      measured: "first 100 ms, last 150 ms (1.50 ×, 3 windows)",
    });
    expect(drift(151)?.met).toBe(false);
    const [p99] = checkWebhookTargets([webhookPhase("sustained", latency(20, 251))]);
    expect(p99?.met).toBe(false);
  });

  it("holds a burst to 2,000 deliveries/s with nothing missing", () => {
    const burst = (fields: Parameters<typeof webhookPhase>[1]) =>
      checkWebhookTargets([webhookPhase("burst", fields)]).find((c) => c.target.startsWith("burst"))?.met;
    expect(burst({ deliveriesPerSecond: 2000 })).toBe(true);
    expect(burst({ deliveriesPerSecond: 1999 })).toBe(false);
    expect(burst({ deliveriesPerSecond: 3000, missing: 1 })).toBe(false);
  });

  it("fails the audit on a lost or unexpected delivery or a bad signature in any phase, not on a duplicate", () => {
    const audit = (fields: Parameters<typeof webhookPhase>[1]) =>
      checkWebhookTargets([webhookPhase("burst"), webhookPhase(NOISY_PHASES.drainB, fields)]).find((c) =>
        c.target.startsWith("webhooks, every phase"),
      );
    expect(audit({})).toMatchObject({
      met: true,
      measured:
        "0 lost (0 missing when their phase ended, 0 of them arrived later), 0 unexpected, 0 bad signatures, 0 duplicates",
    });
    // Missing at the end of one phase and arriving during the next: late, not lost.
    const late = checkWebhookTargets([
      webhookPhase(NOISY_PHASES.refused, { missing: 7 }),
      webhookPhase(NOISY_PHASES.silent, { late: 7 }),
    ]).find((c) => c.target.startsWith("webhooks, every phase"));
    expect(late).toMatchObject({
      met: true,
      measured:
        "0 lost (7 missing when their phase ended, 7 of them arrived later), 0 unexpected, 0 bad signatures, 0 duplicates",
    });
    expect(audit({ duplicates: 3 })?.met).toBe(true);
    expect(audit({ missing: 1 })?.met).toBe(false);
    expect(audit({ unexpected: 2 })?.met).toBe(false);
    expect(audit({ badSignatures: 1 })?.met).toBe(false);
    // A's drain is audited against its rows instead: what has not arrived may still be scheduled.
    const withDrainA = checkWebhookTargets([webhookPhase(NOISY_PHASES.drainA, { missing: 5 })]);
    expect(withDrainA.find((c) => c.target.startsWith("webhooks, every phase"))).toBeUndefined();
  });
});
