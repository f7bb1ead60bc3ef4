/**
 * Completion of a funded batch: once no item waits to be paid or is in flight, what the batch's share of
 * the reservation still holds returns to the balance (one `release` movement), the batch is COMPLETED and
 * ONE `batch.completed` outbox row is written, all in the caller's database transaction. Called where an
 * item becomes final (its transaction's SUCCESS or FAILED, an item the fan-out could not pay), so the last
 * one completes the batch.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import { Dec } from "@payouts/platform/money/decimal";
import { releaseMovement } from "../../domain/posting-rules.js";
import { batchCompletedEvent } from "../../events/batch-event.js";
import { lockBalance, postMovement } from "../../store/ledger-store.js";
import { insertKeyedOutboxEvent } from "../../store/outbox-store.js";
import { countItems } from "../domain/batch-status.js";
import {
  batchHeld,
  countExecutedItems,
  findBatch,
  hasUnfinishedItems,
  itemStatuses,
  type StoredBatch,
  sumItemTotals,
  updateBatch,
} from "../store/batch-store.js";

/**
 * Completes the batch if it is PROCESSING and every funded item is final; returns whether it did. Locks, in
 * this order: the partner's balance row, the batch row, the partner's reservation row (the order every
 * batch movement takes, after any transaction row the caller holds).
 */
export async function completeIfDone(q: Queryable, batchId: string, now: Date): Promise<boolean> {
  const peek = await findBatch(q, batchId, "");
  if (peek?.status !== "PROCESSING") return false;
  const batch = await lockForCompletion(q, peek.partnerId, batchId);
  if (batch?.status !== "PROCESSING") return false;
  // Read after the batch lock: an item another transaction finished before it released the lock is seen
  // (an index probe, so the items before the last cost nothing like a scan of the batch).
  if (await hasUnfinishedItems(q, batchId)) return false;
  const statuses = await itemStatuses(q, batchId);
  await lockReservation(q, batch.partnerId);
  const held = await batchHeld(q, batchId);
  if (held.gt(0)) {
    await postMovement(q, {
      movementId: newId("mov"),
      partnerId: batch.partnerId,
      txId: undefined,
      batchId,
      reference: `batch ${batchId} completed`,
      movement: releaseMovement(held),
      at: now,
    });
  }
  const released = held.gt(0) ? held : new Dec(0);
  await updateBatch(q, batchId, "COMPLETED", now, { completedAt: now, releasedUsd: released });
  const counts = countItems(statuses);
  const paidUsd = await sumItemTotals(q, batchId, ["SUCCESS", "REFUNDED"]);
  const executedItems = await countExecutedItems(q, batchId);
  const event = batchCompletedEvent(
    {
      batchId,
      partnerId: batch.partnerId,
      parentBatchId: batch.parentBatchId,
      counts,
      executedItems,
      paidUsd,
      releasedUsd: released,
    },
    newId("evt"),
    now,
  );
  await insertKeyedOutboxEvent(q, {
    eventId: event.eventId,
    eventKey: batchId,
    sequence: event.sequence,
    eventType: event.eventType,
    payload: event.payload,
    headers: { "event-id": event.eventId, "event-type": event.eventType },
  });
  return true;
}

/**
 * The partner's balance row, then the batch row, locked until the caller's transaction ends (again, if the
 * caller holds them already). A settlement of an item takes them before its movement touches any account,
 * so it and the fan-out (batch row, then reservation, then in_flight) always meet on the batch row first.
 * Concurrent settlements of one batch queue here, so the last of them sees every other item final.
 */
export async function lockForCompletion(
  q: Queryable,
  partnerId: string,
  batchId: string,
): Promise<StoredBatch | undefined> {
  await lockBalance(q, partnerId);
  return findBatch(q, batchId, "", true);
}

/** The partner's reservation row, locked until the caller's transaction ends; its balance. */
export async function lockReservation(q: Queryable, partnerId: string): Promise<Dec> {
  const res = await q.query<{ balance: string }>(
    `SELECT balance FROM ledger.accounts WHERE partner_id = $1 AND kind = 'reservation' FOR UPDATE`,
    [partnerId],
  );
  const row = res.rows[0];
  if (!row) throw new Error(`partner ${partnerId} has no reservation account`);
  return new Dec(row.balance);
}
