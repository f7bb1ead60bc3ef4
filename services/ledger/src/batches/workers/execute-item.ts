/**
 * The payout of one funded item, idempotent by (batch_id, item_ref): the item's transaction is the unit. In
 * one database transaction, under the transaction's row lock: if it is still PENDING, it moves to
 * PROCESSING with a `batch_payout` movement (from the batch's reservation, not the balance), its history
 * row and event, the item's status, and the removal of the work row; if it has moved on (PROCESSING,
 * SUCCESS, ...) only the work row goes. A worker that dies before COMMIT leaves everything as it was and
 * the row is claimed again after its lease; one that dies after COMMIT leaves the payout to the rail
 * resubmission loop, like any executed payout. So no item is lost and none is paid twice.
 */

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

/** Returns the payout it committed (already handed to the rail), or undefined when there was nothing to pay. */
export async function executeItem(deps: BatchDeps, work: WorkRow): Promise<StoredTransaction | undefined> {
  const now = deps.now();
  const executed = await deps.db.transaction(async (q) => {
    const item = await findItem(q, work.batchId, work.itemRef);
    if (item?.status !== "PENDING" || !item.txId) {
      await finishWork(q, work);
      return undefined;
    }
    const locked = await lockTransaction(q, item.txId);
    if (!locked || (locked.tx.status !== "PENDING" && locked.tx.status !== "EXPIRED")) {
      // Already executed: its status is the item's; nothing more to do.
      await finishWork(q, work);
      return undefined;
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
      await completeIfDone(q, work.batchId, now);
      return undefined;
    }
    // The batch row before the reservation row (the order approval and completion take): the movement's
    // entry trigger draws the item's total from the batch's share (`held_usd`).
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
  });
  if (executed) {
    deps.committed();
    await deps.submit(executed);
  }
  return executed;
}
