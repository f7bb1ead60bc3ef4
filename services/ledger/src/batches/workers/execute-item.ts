/**
 * The payout of funded items, each idempotent by (batch_id, item_ref): the item's transaction is the unit.
 * In one database transaction (for a group of items of one batch), under each transaction's row lock: if it is still PENDING, it moves to
 * PROCESSING with a `batch_payout` movement (from the batch's reservation, not the balance), its history
 * row and event, the item's status, and the removal of the work row; if it has moved on (PROCESSING,
 * SUCCESS, ...) only the work row goes. A worker that dies before COMMIT leaves everything as it was and
 * the row is claimed again after its lease; one that dies after COMMIT leaves the payout to the rail
 * resubmission loop, like any executed payout. So no item is lost and none is paid twice.
 */

import type { Queryable } from "@payouts/platform/database/database";
import { batchPayoutMovement, payoutTotal } from "../../domain/posting-rules.js";
import { addTransition, TRANSITION_RESULT, transitionApplied } from "../../operations/transition.js";
import { lockTransaction } from "../../store/locked-transaction-store.js";
import { Statement } from "../../store/statement.js";
import type { StoredTransaction, TxRow } from "../../store/transaction-store.js";
import { fundedItemRefusal } from "../domain/funded-item.js";
import type { BatchDeps } from "../operations/batch-deps.js";
import { completeIfDone, lockReservation } from "../operations/complete-batch.js";
import { findBatch, findItem } from "../store/batch-store.js";
import { finishWork, type WorkRow } from "../store/work-queue.js";

/** What one item's turn did inside the group's database transaction: its payout, or why there is none. */
type ItemTurn = StoredTransaction | "unpaid" | "nothing";

/**
 * Pays `works` (items of one batch) in one database transaction: one commit, one wait for the disk, for the
 * whole group, where paying them one by one queues a commit per item behind the batch row. Returns the payouts
 * it committed, already handed to the rail. If the group fails (a database error, a bug), each item is tried
 * again alone, so one item's trouble holds back no other.
 */
export async function executeItems(deps: BatchDeps, works: readonly WorkRow[]): Promise<StoredTransaction[]> {
  try {
    return await executeGroup(deps, works);
  } catch (error) {
    if (works.length === 1) throw error;
    deps.logger.warn(
      { batch_id: works[0]?.batchId, items: works.length, err: error },
      "batch group failed; paying its items one by one",
    );
    const paid: StoredTransaction[] = [];
    for (const work of works) {
      try {
        paid.push(...(await executeGroup(deps, [work])));
      } catch (itemError) {
        // The lease expires and the row is claimed again: nothing is lost.
        deps.logger.error(
          { batch_id: work.batchId, item_ref: work.itemRef, err: itemError },
          "batch work failed",
        );
      }
    }
    return paid;
  }
}

async function executeGroup(deps: BatchDeps, works: readonly WorkRow[]): Promise<StoredTransaction[]> {
  const now = deps.now();
  const batchId = works[0]?.batchId ?? "";
  const paid = await deps.db.transaction(async (q) => {
    const committed: StoredTransaction[] = [];
    let unpaid = false;
    for (const work of works) {
      const outcome = await payItem(deps, q, work, now);
      if (outcome === "unpaid") unpaid = true;
      else if (outcome !== "nothing") committed.push(outcome);
    }
    // An item that was never paid may have been the batch's last. Not while this group paid one: that
    // payout is in flight, and checking would take the balance row after the batch row this group holds.
    if (unpaid && committed.length === 0) await completeIfDone(q, batchId, now);
    return committed;
  });
  if (paid.length > 0) {
    deps.committed();
    await Promise.all(paid.map((tx) => deps.submit(tx)));
  }
  return paid;
}

/** One item's turn in the caller's database transaction. */
async function payItem(deps: BatchDeps, q: Queryable, work: WorkRow, now: Date): Promise<ItemTurn> {
  const item = await findItem(q, work.batchId, work.itemRef);
  if (item?.status !== "PENDING" || !item.txId) {
    await finishWork(q, work);
    return "nothing";
  }
  const locked = await lockTransaction(q, item.txId);
  if (!locked || (locked.tx.status !== "PENDING" && locked.tx.status !== "EXPIRED")) {
    // Already executed: its status is the item's; nothing more to do.
    await finishWork(q, work);
    return "nothing";
  }
  const { tx } = locked;
  const quote = tx.quote;
  // Funded at its quote: paid at that quote whatever the time (see domain/funded-item).
  const unpaid = fundedItemRefusal(tx);
  if (unpaid || !quote) {
    // Never paid: the item fails, and its share of the reservation returns at completion.
    await q.query(
      `UPDATE ledger.batch_items SET status = 'FAILED', failure_reason = $3, updated_at = $4
        WHERE batch_id = $1 AND item_ref = $2 AND status = 'PENDING'`,
      [work.batchId, work.itemRef, unpaid ?? "", now],
    );
    await finishWork(q, work);
    return "unpaid";
  }
  // The batch row before the reservation row (the order approval and completion take): the movement's
  // entry trigger draws the item's total from the batch's share (`held_usd`). Again for each item of a
  // group: the locks are held already, and the read is of the row as this transaction left it.
  await findBatch(q, work.batchId, "", true);
  // The reservation is the source account: its row lock plays the role of the balance lock.
  const reservation = await lockReservation(q, tx.partnerId);
  const st = new Statement();
  addTransition(
    st,
    { ...locked, balance: reservation },
    {
      to: "PROCESSING",
      reason: `batch ${work.batchId} funded`,
      now,
      movement: batchPayoutMovement(quote),
      changes: {
        debitedUsd: payoutTotal(quote),
        executionKey: `batch:${work.batchId}:${work.itemRef}`,
        nextRailAttemptAt: new Date(now.getTime() + deps.config.railSubmitTimeoutMs * 2),
      },
    },
  );
  const written = await st.run<TxRow>(q, TRANSITION_RESULT);
  const committed = transitionApplied(written.rows, `batch item ${work.batchId}/${work.itemRef}`);
  await finishWork(q, work);
  return committed;
}
