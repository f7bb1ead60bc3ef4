/**
 * How soon webhooks flow again after a fault, as pure functions of the receiver's records and the event
 * timings the database kept. Two clocks start at the fault's mark (the kill, or the broker answering
 * again): the first accepted notification of an event the relay published after the mark (new events: the
 * consumer takes messages again), and the first accepted notification of a delivery row stored before the
 * mark (stored deliveries: the workers run again).
 */

/** What the measure reads of a notification the receiver accepted (audit.ts ReceivedNotification). */
export interface AcceptedArrival {
  readonly eventId: string | undefined;
  /** Epoch ms. */
  readonly receivedAt: number;
}

/** When an event went to Kafka and when the dispatcher stored its first delivery row (epoch ms). */
export interface EventTiming {
  readonly eventId: string;
  /** ledger.outbox.published_at; undefined while unpublished. */
  readonly publishedAt: number | undefined;
  /** Earliest webhooks.deliveries.created_at of the event; undefined when no row was stored. */
  readonly storedAt: number | undefined;
}

/** The limits a fault's resumption is held to, in ms; a measure without a limit is only reported. */
export interface ResumptionLimits {
  readonly newEventsMs: number;
  readonly storedMs?: number;
}

/** Where the clocks of one fault start. */
export interface ResumptionMark {
  readonly fault: string;
  /** What happened at `at`, e.g. `kill -9` or `broker answering`. */
  readonly from: string;
  /** Epoch ms. */
  readonly at: number;
  readonly limits: ResumptionLimits;
}

export interface Resumption extends ResumptionMark {
  /** From the mark to the first accepted notification of an event published after it. */
  readonly newEventsMs: number | undefined;
  /** From the mark to the first accepted notification of a row stored before it. */
  readonly storedMs: number | undefined;
}

export interface ResumptionProblem {
  readonly fault: string;
  readonly detail: string;
}

/** `accepted`: the notifications the receiver accepted (isAccepted), in any order. */
export function measureResumption(
  mark: ResumptionMark,
  accepted: readonly AcceptedArrival[],
  events: readonly EventTiming[],
): Resumption {
  const timing = new Map(events.map((e) => [e.eventId, e]));
  let newEventsMs: number | undefined;
  let storedMs: number | undefined;
  for (const n of accepted) {
    if (n.eventId === undefined || n.receivedAt < mark.at) continue;
    const event = timing.get(n.eventId);
    if (!event) continue;
    const after = n.receivedAt - mark.at;
    if (event.publishedAt !== undefined && event.publishedAt >= mark.at)
      newEventsMs = Math.min(newEventsMs ?? after, after);
    if (event.storedAt !== undefined && event.storedAt < mark.at)
      storedMs = Math.min(storedMs ?? after, after);
  }
  return { ...mark, newEventsMs, storedMs };
}

/** A limit missed, or a measure the run could not take (nothing of its kind was delivered after the mark). */
export function resumptionProblems(r: Resumption): ResumptionProblem[] {
  const problems: ResumptionProblem[] = [];
  const check = (what: string, measured: number | undefined, limit: number | undefined) => {
    if (limit === undefined) return;
    if (measured === undefined)
      problems.push({ fault: r.fault, detail: `no ${what} was delivered after the ${r.from}` });
    else if (measured > limit)
      problems.push({
        fault: r.fault,
        detail: `${what}: first delivered ${seconds(measured)} after the ${r.from}, limit ${seconds(limit)}`,
      });
  };
  check("event published after the fault", r.newEventsMs, r.limits.newEventsMs);
  check("delivery stored before the fault", r.storedMs, r.limits.storedMs);
  return problems;
}

export function seconds(ms: number | undefined): string {
  return ms === undefined ? "-" : `${(ms / 1000).toFixed(1)} s`;
}
