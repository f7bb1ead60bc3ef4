/**
 * What the backlog gauges report, from each receiver's figures. Per-receiver series are bounded: only the
 * `topN` receivers with the largest backlog and the `topN` with the oldest pending row get a series of their
 * own (attributes config_id and partner_id), so the number of series never grows with the number of
 * receivers; every receiver counts in the totals.
 */

export type ReceiverStatus = "active" | "paused" | "disabled";

export interface ReceiverFigures {
  readonly configId: string;
  readonly partnerId: string;
  readonly active: boolean;
  readonly paused: boolean;
  readonly circuitState: "closed" | "open" | "half_open";
  readonly pending: number;
  readonly oldestPendingAt: Date | null;
}

export interface RankedReceiver {
  readonly configId: string;
  readonly partnerId: string;
  readonly value: number;
}

export interface BacklogSummary {
  /** Pending rows by receiver status: active ones are being delivered, the others wait on purpose. */
  readonly pending: Readonly<Record<ReceiverStatus, number>>;
  /** Age in seconds of the oldest pending row, by receiver status (0 when none). */
  readonly oldestAgeSeconds: Readonly<Record<ReceiverStatus, number>>;
  /** Receivers whose circuit is open, and half-open (one probe in flight). */
  readonly circuits: Readonly<{ open: number; half_open: number }>;
  readonly paused: number;
  /** The receivers with the largest backlog, largest first. */
  readonly topBacklog: readonly RankedReceiver[];
  /** The receivers with the oldest pending row, oldest first (seconds). */
  readonly topOldestAge: readonly RankedReceiver[];
}

/** Disabled wins over paused: a disabled receiver gets no new rows either. */
export function receiverStatus(r: Pick<ReceiverFigures, "active" | "paused">): ReceiverStatus {
  if (!r.active) return "disabled";
  return r.paused ? "paused" : "active";
}

export function summarizeBacklogs(
  receivers: readonly ReceiverFigures[],
  now: Date,
  topN: number,
): BacklogSummary {
  const pending = { active: 0, paused: 0, disabled: 0 };
  const oldestAgeSeconds = { active: 0, paused: 0, disabled: 0 };
  const circuits = { open: 0, half_open: 0 };
  let paused = 0;
  const ages = receivers.map((r) => ({
    r,
    age: r.oldestPendingAt ? Math.max(0, (now.getTime() - r.oldestPendingAt.getTime()) / 1000) : 0,
  }));
  for (const { r, age } of ages) {
    const status = receiverStatus(r);
    pending[status] += r.pending;
    oldestAgeSeconds[status] = Math.max(oldestAgeSeconds[status], age);
    if (r.circuitState !== "closed") circuits[r.circuitState] += 1;
    if (r.paused) paused += 1;
  }
  const ranked = (value: (x: (typeof ages)[number]) => number): RankedReceiver[] =>
    ages
      .map((x) => ({ configId: x.r.configId, partnerId: x.r.partnerId, value: value(x) }))
      .filter((x) => x.value > 0)
      // Ties broken by config id, so the same receivers keep their series from one refresh to the next.
      .sort((a, b) => b.value - a.value || (a.configId < b.configId ? -1 : 1))
      .slice(0, topN);
  return {
    pending,
    oldestAgeSeconds,
    circuits,
    paused,
    topBacklog: ranked((x) => x.r.pending),
    topOldestAge: ranked((x) => x.age),
  };
}
