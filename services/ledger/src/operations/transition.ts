/**
 * One state change of a transaction, written in the caller's database transaction: the ledger movement
 * (when money moves), the new status, its history row and its outbox event, all or nothing.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import type { Movement } from "../domain/posting-rules.js";
import { canTransition, type TxStatus } from "../domain/transaction-status.js";
import { transactionEvent } from "../events/transaction-event.js";
import { lockBalance, postMovement } from "../store/ledger-store.js";
import { insertOutboxEvent } from "../store/outbox-store.js";
import {
  insertHistory,
  type StatusChanges,
  type StoredTransaction,
  updateStatus,
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

/** `tx` must have been read with its row lock in this database transaction. */
export async function transition(
  q: Queryable,
  tx: StoredTransaction,
  spec: TransitionSpec,
): Promise<StoredTransaction> {
  if (!canTransition(tx.status, spec.to)) {
    throw new Error(`illegal transition ${tx.status} -> ${spec.to} of ${tx.txId}`);
  }
  if (spec.movement) {
    await lockBalance(q, tx.partnerId);
    await postMovement(q, {
      movementId: newId("mov"),
      partnerId: tx.partnerId,
      txId: tx.txId,
      reference: `${tx.status} -> ${spec.to}`,
      movement: spec.movement,
      at: spec.now,
    });
    countMovement(spec.movement);
  }
  const updated = await updateStatus(q, tx, spec.to, spec.now, spec.changes);
  await recordArrival(q, updated, tx.status, spec.reason, spec.now, spec.traceparent);
  return updated;
}

/** The history row and outbox event of `tx` arriving in its current status (sequence already bumped). */
export async function recordArrival(
  q: Queryable,
  tx: StoredTransaction,
  from: TxStatus | undefined,
  reason: string,
  now: Date,
  traceparent?: string,
): Promise<void> {
  await insertHistory(q, {
    txId: tx.txId,
    sequence: tx.eventSequence,
    from,
    to: tx.status,
    reason,
    at: now,
  });
  const event = transactionEvent(tx, newId("evt"), now);
  await insertOutboxEvent(q, {
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
}
