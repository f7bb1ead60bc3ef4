/**
 * Ordering of notifications: per transaction (below), and batch.completed after its items' events (at the
 * end of this file).
 *
 * Rule: for one transaction and one webhook configuration, an event is not delivered before every earlier
 * event (lower `sequence`) of that pair is settled, i.e. `delivered` or `dead`. A receiver therefore never
 * sees `transaction.refunded` before the `transaction.success` it reverses, while a slow receiver or one
 * slow transaction holds back nothing else.
 *
 * - Only delivery rows that exist count. Events the configuration does not receive (filtered out, or kinds
 *   that are never notified such as `transaction.processing`) leave gaps in `sequence`; gaps never block.
 *   Rows arrive in sequence order because the topic is keyed by `tx_id` and rows are stored before the
 *   offset is committed.
 * - `dead` settles: an exhausted earlier event must not hold later ones forever. Redelivering a dead
 *   event by hand makes it pending again, so it then blocks later events that are still pending, but never
 *   recalls ones already delivered.
 * - Any status other than `delivered` and `dead` (pending, in flight, ...) blocks.
 * - Equal sequences do not block each other.
 *
 * The store mirrors the predicate when claiming work, so the rule holds across workers:
 *
 *   SELECT d.id FROM webhooks.deliveries d
 *    WHERE d.status = 'pending' AND d.next_attempt_at <= now()
 *      AND NOT EXISTS (
 *        SELECT 1 FROM webhooks.deliveries e
 *         WHERE e.config_id = d.config_id AND e.tx_id = d.tx_id
 *           AND e.sequence < d.sequence
 *           AND e.status NOT IN ('delivered', 'dead'))
 *    ORDER BY d.next_attempt_at
 *    LIMIT $1
 *    FOR UPDATE SKIP LOCKED
 *
 * (index on (config_id, tx_id, sequence)). A row another worker has locked is still pending, so it keeps
 * blocking its successors; two workers never deliver the same pair concurrently.
 */

/** Statuses that release the deliveries after them. */
export const SETTLED_DELIVERY_STATUSES: readonly string[] = Object.freeze(["delivered", "dead"]);

export interface SequencedDelivery {
  readonly sequence: bigint;
  readonly status: string;
}

export function isSettled(delivery: SequencedDelivery): boolean {
  return SETTLED_DELIVERY_STATUSES.includes(delivery.status);
}

/**
 * The earliest unsettled delivery that holds `candidate` back, or `undefined` when it may be delivered.
 * `siblings` are the deliveries of the same transaction and configuration; `candidate` may be among them.
 */
export function blockingDelivery<T extends SequencedDelivery>(
  candidate: Pick<SequencedDelivery, "sequence">,
  siblings: readonly T[],
): T | undefined {
  let earliest: T | undefined;
  for (const sibling of siblings) {
    if (sibling.sequence >= candidate.sequence || isSettled(sibling)) continue;
    if (earliest === undefined || sibling.sequence < earliest.sequence) earliest = sibling;
  }
  return earliest;
}

/** The ordering predicate: true when no earlier delivery of the same transaction and configuration is unsettled. */
export function mayDeliver(
  candidate: Pick<SequencedDelivery, "sequence">,
  siblings: readonly SequencedDelivery[],
): boolean {
  return blockingDelivery(candidate, siblings) === undefined;
}

/**
 * batch.completed after its items' events.
 *
 * Rule: a partner's `batch.completed` delivery (to any of its configurations) is not delivered while
 *
 * - any delivery of an item event of that batch to that partner (any configuration, any item event type)
 *   is unsettled (pending or in flight): the summary never overtakes an item's own notification, while an
 *   item's delivery that is delivered or dead releases it as it releases later events of its transaction;
 * - or the intake has recorded fewer of the batch's final item events (transaction.success or
 *   transaction.failed carrying the batch id) than the batch event says there were
 *   (BatchEvent.executed_items). Item events are keyed by tx id and the batch event by batch id, so they
 *   travel on different partitions and an item's event may be consumed after the batch's; until it is, no
 *   delivery row of it exists to wait for. The count is kept whether or not any configuration receives
 *   item events.
 *
 * The claim mirrors this (delivery-queue-store.ts BATCH_COMPLETED_RELEASED); deliveries stored claimed by
 * the intake are never batch.completed ones, so the claim alone decides.
 */
export interface BatchTally {
  /** BatchEvent.executed_items; undefined until the batch event is consumed. */
  readonly itemsExpected: number | undefined;
  /** Final item events consumed so far. */
  readonly itemsFinal: number;
}

export type BatchCompletedHold<T> =
  | { readonly reason: "item-delivery-unsettled"; readonly delivery: T }
  | { readonly reason: "item-events-missing"; readonly missing: number };

/**
 * What holds a batch.completed delivery back, or `undefined` when it may be delivered. `itemDeliveries`
 * are the partner's deliveries of the batch's item events; `tally` is undefined when the intake recorded
 * nothing for the batch.
 */
export function batchCompletedHold<T extends Pick<SequencedDelivery, "status">>(
  itemDeliveries: readonly T[],
  tally: BatchTally | undefined,
): BatchCompletedHold<T> | undefined {
  const unsettled = itemDeliveries.find((d) => !SETTLED_DELIVERY_STATUSES.includes(d.status));
  if (unsettled !== undefined) return { reason: "item-delivery-unsettled", delivery: unsettled };
  const missing = (tally?.itemsExpected ?? 0) - (tally?.itemsFinal ?? 0);
  if (missing > 0) return { reason: "item-events-missing", missing };
  return undefined;
}

/** The batch predicate: true when nothing holds this batch.completed delivery back. */
export function mayDeliverBatchCompleted(
  itemDeliveries: readonly Pick<SequencedDelivery, "status">[],
  tally: BatchTally | undefined,
): boolean {
  return batchCompletedHold(itemDeliveries, tally) === undefined;
}
