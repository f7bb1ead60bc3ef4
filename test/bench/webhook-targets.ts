import {
  NOISY_PHASES,
  type NoisyNeighbourResult,
  type TargetCheck,
  type WebhookPhaseResult,
} from "./bench-results.js";

/** B's latency beside A's dead receivers, and during A's drain. */
const NEIGHBOUR_P99_MS = 250;
const NEIGHBOUR_P50_MS = 50;
const NEIGHBOUR_CPU_RATIO = 1.2;
const DRAIN_P99_MS = 500;
const A_DRAIN_PER_SECOND = 1000;
/** Share of A's backlog that must have arrived for its drain rate to count. */
const DRAIN_SHARE = 0.99;
const SUSTAINED_P99_MS = 250;
const SUSTAINED_DRIFT = 1.5;
const BURST_PER_SECOND = 2000;

/** The webhook scenarios' targets, checked against what was measured (never fails the run). */
export function checkWebhookTargets(
  webhooks: readonly WebhookPhaseResult[],
  noisy?: NoisyNeighbourResult,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const phase = (name: string) => webhooks.find((w) => w.phase === name);
  const alone = phase(NOISY_PHASES.alone);
  for (const [name, what] of [
    [NOISY_PHASES.refused, "A's receivers refuse connections"],
    [NOISY_PHASES.silent, "A's receivers never answer"],
  ] as const) {
    const b = phase(name);
    if (!b) continue;
    const { p50, p99 } = b.eventToAckMs;
    checks.push({
      target: `noisy neighbour, ${what}: B's p99 event-to-2xx ≤ ${NEIGHBOUR_P99_MS} ms and p50 ≤ ${NEIGHBOUR_P50_MS} ms at ${b.offeredDeliveriesPerSecond} deliveries/s`,
      measured: `p99 ${ms(p99)}, p50 ${ms(p50)} (B alone: p99 ${ms(alone?.eventToAckMs.p99)}, p50 ${ms(alone?.eventToAckMs.p50)})${missing(b)}`,
      met: p99 <= NEIGHBOUR_P99_MS && p50 <= NEIGHBOUR_P50_MS && b.missing === 0,
    });
    if (alone && alone.cpuMsPerDelivery > 0) {
      const ratio = b.cpuMsPerDelivery / alone.cpuMsPerDelivery;
      checks.push({
        target: `noisy neighbour, ${what}: B's CPU per delivery ≤ ${NEIGHBOUR_CPU_RATIO} × B alone (all processes)`,
        measured: `${b.cpuMsPerDelivery.toFixed(2)} ms against ${alone.cpuMsPerDelivery.toFixed(2)} ms (${ratio.toFixed(2)} ×)`,
        met: ratio <= NEIGHBOUR_CPU_RATIO,
      });
    }
  }
  if (noisy) {
    const d = noisy.drain;
    checks.push({
      target: `recovery: A's backlog of ${d.expected} deliveries drains at ≥ ${thousands(A_DRAIN_PER_SECOND)} deliveries/s (at least 99 % of it arrived)`,
      measured: `${d.deliveriesPerSecond.toFixed(0)} deliveries/s (${d.arrived} of ${d.expected} arrived in ${d.seconds.toFixed(1)} s; ${d.ended})`,
      // A few of A's deliveries may rightly wait for a retry scheduled while the receiver was down (a
      // circuit breaker's probe): the rate counts if at least 99 % arrived; the rest is in the audit below.
      met: d.deliveriesPerSecond >= A_DRAIN_PER_SECOND && d.arrived >= DRAIN_SHARE * d.expected,
    });
    checks.push({
      target: "recovery: A's deliveries arrive in per-transaction order",
      measured: `${d.outOfOrder} of ${d.transactionsChecked} (transaction, receiver) pairs out of order`,
      met: d.outOfOrder === 0 && d.transactionsChecked > 0,
    });
    const rows = Object.values(d.rowsByStatus).reduce((sum, n) => sum + n, 0);
    const dead = d.rowsByStatus.dead ?? 0;
    checks.push({
      target:
        "recovery: nothing of A's backlog lost (every delivery arrived or is still scheduled, none dead)",
      measured: `${d.arrived} arrived, ${rows} rows stored of ${d.expected}, ${dead} dead (${describeRows(d.rowsByStatus)})`,
      met: dead === 0 && rows === d.expected,
    });
  }
  const drainB = phase(NOISY_PHASES.drainB);
  if (drainB) {
    checks.push({
      target: `recovery: B's p99 event-to-2xx ≤ ${DRAIN_P99_MS} ms during A's drain at ${drainB.offeredDeliveriesPerSecond} deliveries/s`,
      measured: `${ms(drainB.eventToAckMs.p99)}${missing(drainB)}`,
      met: drainB.eventToAckMs.p99 <= DRAIN_P99_MS && drainB.missing === 0,
    });
  }
  const sustained = phase("sustained");
  if (sustained) {
    checks.push({
      target: `sustained: p99 event-to-2xx ≤ ${SUSTAINED_P99_MS} ms at ${sustained.offeredDeliveriesPerSecond} deliveries/s offered for ${sustained.publishedSeconds.toFixed(0)} s`,
      measured: `${ms(sustained.eventToAckMs.p99)} (${sustained.deliveriesPerSecond.toFixed(0)} deliveries/s)${missing(sustained)}`,
      met: sustained.eventToAckMs.p99 <= SUSTAINED_P99_MS && sustained.missing === 0,
    });
    const windows = sustained.windows ?? [];
    const first = windows[0];
    const last = windows.at(-1);
    if (first && last && windows.length > 1) {
      const ratio = first.p99 > 0 ? last.p99 / first.p99 : Number.POSITIVE_INFINITY;
      checks.push({
        target: `sustained: the last window's p99 ≤ ${SUSTAINED_DRIFT} × the first window's`,
        measured: `first ${ms(first.p99)}, last ${ms(last.p99)} (${ratio.toFixed(2)} ×, ${windows.length} windows)`,
        met: ratio <= SUSTAINED_DRIFT,
      });
    }
  }
  const burst = phase("burst");
  if (burst) {
    checks.push({
      target: `burst: ${burst.expectedDeliveries} deliveries queued at once drain at ≥ ${thousands(BURST_PER_SECOND)} deliveries/s`,
      measured: `${burst.deliveriesPerSecond.toFixed(0)} deliveries/s${missing(burst)}`,
      met: burst.deliveriesPerSecond >= BURST_PER_SECOND && burst.missing === 0,
    });
  }
  // A's drain has its own audit above: what has not arrived there may still be scheduled for retry.
  const audited = webhooks.filter((w) => w.phase !== NOISY_PHASES.drainA);
  if (audited.length > 0) {
    const total = (field: "missing" | "duplicates" | "late" | "unexpected" | "badSignatures") =>
      audited.reduce((sum, w) => sum + w[field], 0);
    // A delivery missing when its phase stopped waiting and arriving in a later phase was late, not lost.
    const lost = total("missing") - total("late");
    checks.push({
      target:
        "webhooks, every phase: nothing lost or unexpected, every signature valid (a duplicate is allowed: the same event id again, at-least-once)",
      measured: `${lost} lost (${total("missing")} missing when their phase ended, ${total("late")} of them arrived later), ${total("unexpected")} unexpected, ${total("badSignatures")} bad signatures, ${total("duplicates")} duplicates`,
      met: lost === 0 && total("unexpected") === 0 && total("badSignatures") === 0,
    });
  }
  return checks;
}

function ms(value: number | undefined): string {
  return value === undefined ? "—" : `${value >= 10 ? value.toFixed(0) : value.toFixed(1)} ms`;
}

function missing(w: WebhookPhaseResult): string {
  return w.missing > 0 ? `, ${w.missing} not arrived` : "";
}

function thousands(n: number): string {
  return n.toLocaleString("en-US");
}

function describeRows(rows: Readonly<Record<string, number>>): string {
  const entries = Object.entries(rows);
  return entries.length === 0 ? "no rows" : entries.map(([status, n]) => `${status} ${n}`).join(", ");
}
