/**
 * One state change of a transaction, written in the caller's database transaction as one statement: the
 * ledger movement (when money moves), the new status, its history row and its outbox event, all or nothing.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import { itemStatusForTransaction } from "../batches/domain/batch-status.js";
import { completeIfDone, lockForCompletion } from "../batches/operations/complete-batch.js";
import { addItemFollowsTransaction } from "../batches/store/item-follows-transaction.js";
import type { Movement } from "../domain/posting-rules.js";
import { canTransition, type TxStatus } from "../domain/transaction-status.js";
import { transactionEvent } from "../events/transaction-event.js";
import { addMovement } from "../store/ledger-store.js";
import type { LockedTransaction } from "../store/locked-transaction-store.js";
import { addOutboxEvent } from "../store/outbox-store.js";
import { Statement } from "../store/statement.js";
import {
  addHistory,
  addStatusUpdate,
  exactlyOneTransaction,
  type HistoryRow,
  type StatusChanges,
  type StoredTransaction,
  statusChanged,
  TRANSACTION_COLUMNS,
  type TxRow,
} from "../store/transaction-store.js";
import { countArrival, countMovement } from "../telemetry/ledger-metrics.js";

export interface TransitionSpec {
  readonly to: TxStatus;
  readonly reason: string;
  readonly now: Date;
  readonly movement?: Movement;
  readonly changes?: StatusChanges;
  /** W3C trace context of the request that caused the change, carried to the event headers. */
  readonly traceparent?: string | undefined;
}

/** A transaction after a change, with its whole status history. */
export interface ChangedTransaction {
  readonly tx: StoredTransaction;
  readonly history: readonly HistoryRow[];
}

/**
 * Writes the change in one statement. `locked` must have been read with its row lock in this database
 * transaction (lockTransaction), and with the balance lock when money moves.
 */
export async function transition(
  q: Queryable,
  locked: LockedTransaction,
  spec: TransitionSpec,
): Promise<ChangedTransaction> {
  const st = new Statement();
  const changed = addTransition(st, locked, spec);
  const completes = locked.tx.batchItem && (spec.to === "SUCCESS" || spec.to === "FAILED");
  // Before the movement touches any account row: the batch fan-out holds the batch row while it moves
  // money into in_flight, so taking the batch row after in_flight would deadlock with it.
  if (completes) await lockForCompletion(q, locked.tx.partnerId, locked.tx.batchItem.batchId);
  const res = await st.run<TxRow>(q, TRANSITION_RESULT);
  const tx = transitionApplied(res.rows, describe(locked, spec));
  // A batch item that became final may be its batch's last: completion is checked in this transaction.
  if (tx.batchItem && (tx.status === "SUCCESS" || tx.status === "FAILED")) {
    await completeIfDone(q, tx.batchItem.batchId, spec.now);
  }
  return { tx, history: changed.history };
}

const UPDATE_PART = "tx_update";
/** The main query that returns the row of the part addTransition wrote. */
export const TRANSITION_RESULT = `SELECT ${TRANSACTION_COLUMNS} FROM ${UPDATE_PART}`;

/**
 * The writes of a change as parts of `st`, for a caller that adds more writes to the same statement: the
 * main query must then check that the part `tx_update` returned exactly one row (transitionApplied).
 * Returns the transaction as the statement will leave it.
 */
export function addTransition(
  st: Statement,
  locked: LockedTransaction,
  spec: TransitionSpec,
): ChangedTransaction {
  const { tx } = locked;
  if (!canTransition(tx.status, spec.to)) {
    throw new Error(`illegal transition ${tx.status} -> ${spec.to} of ${tx.txId}`);
  }
  if (spec.movement) {
    // Every movement of a partner holds its balance row lock, taken after the transaction's row lock.
    if (locked.balance === undefined) throw new Error(`money moves on ${tx.txId} without the balance lock`);
    addMovement(st, {
      movementId: newId("mov"),
      partnerId: tx.partnerId,
      txId: tx.txId,
      // A batch item's debit comes from its batch's reservation, and names the batch.
      batchId: spec.movement.kind === "batch_payout" ? tx.batchItem?.batchId : undefined,
      reference: `${tx.status} -> ${spec.to}`,
      movement: spec.movement,
      at: spec.now,
    });
    countMovement(spec.movement);
  }
  addStatusUpdate(st, tx, spec.to, spec.now, spec.changes, UPDATE_PART);
  // A batch item's status follows its transaction's, in the same statement.
  const itemStatus = itemStatusForTransaction(spec.to);
  if (tx.batchItem && itemStatus) {
    addItemFollowsTransaction(st, tx.txId, itemStatus, spec.now, spec.changes?.failureReason ?? "");
  }
  const updated = statusChanged(tx, spec.to, spec.now, spec.changes);
  const arrival = addArrival(st, updated, tx.status, spec.reason, spec.now, spec.traceparent);
  return { tx: updated, history: [...locked.history, arrival] };
}

/** The rows a statement built with addTransition returned with TRANSITION_RESULT: exactly one. */
export function transitionApplied(rows: readonly TxRow[], what: string): StoredTransaction {
  return exactlyOneTransaction(rows, what);
}

/**
 * The history row and outbox event of `tx` arriving in its current status (sequence already bumped), as
 * parts of `st`. Returns the history row.
 */
export function addArrival(
  st: Statement,
  tx: StoredTransaction,
  from: TxStatus | undefined,
  reason: string,
  now: Date,
  traceparent?: string,
): HistoryRow {
  const row: HistoryRow = { txId: tx.txId, sequence: tx.eventSequence, from, to: tx.status, reason, at: now };
  addHistory(st, row);
  const event = transactionEvent(tx, newId("evt"), now);
  addOutboxEvent(st, {
    eventId: event.eventId,
    txId: tx.txId,
    sequence: event.sequence,
    eventType: event.eventType,
    payload: event.payload,
    headers: {
      "event-id": event.eventId,
      "event-type": event.eventType,
      ...(traceparent ? { traceparent } : {}),
    },
  });
  countArrival(tx);
  return row;
}

function describe(locked: LockedTransaction, spec: TransitionSpec): string {
  return `transition ${locked.tx.txId} ${locked.tx.status}->${spec.to}`;
}
