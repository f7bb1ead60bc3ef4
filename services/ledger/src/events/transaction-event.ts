/**
 * The outbox payload of a status change: a payouts.events.v1.TransactionEvent with the partner webhook's
 * facts (amount, fees, sender and recipient from the destination, refund reason), binary-encoded.
 */
import { create, type JsonObject, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { payoutFee } from "../domain/posting-rules.js";
import { eventTypeFor } from "../domain/transaction-status.js";
import type { StoredTransaction } from "../store/transaction-store.js";

export interface EventEnvelope {
  readonly eventId: string;
  readonly eventType: string;
  readonly sequence: number;
  readonly payload: Uint8Array;
}

/** The event announcing that `tx` (already updated) arrived in its current status. */
export function transactionEvent(tx: StoredTransaction, eventId: string, occurredAt: Date): EventEnvelope {
  const eventType = eventTypeFor(tx.status);
  const quote = tx.quote;
  const event = create(TransactionEventSchema, {
    eventId,
    eventType,
    occurredAt: timestampFromDate(occurredAt),
    txId: tx.txId,
    partnerId: tx.partnerId,
    status: tx.status,
    sequence: BigInt(tx.eventSequence),
    amount: tx.amount === undefined ? "" : toDecimalString(tx.amount),
    currency: tx.currency,
    amountUsd: quote ? toDecimalString(quote.amountUsd) : "",
    fee: quote ? toDecimalString(payoutFee(quote)) : "",
    percentageFee: quote ? toDecimalString(quote.percentageFee) : "",
    fixedFee: quote ? toDecimalString(quote.fixedFee) : "",
    ...party("sender", tx.destination.sender),
    ...party("recipient", tx.destination.recipient),
    refundReason: tx.refundReason,
    failureReason: tx.failureReason,
    partnerTransactionId: tx.partnerTransactionId,
    batchId: tx.batchItem?.batchId ?? "",
    itemRef: tx.batchItem?.itemRef ?? "",
  });
  return { eventId, eventType, sequence: tx.eventSequence, payload: toBinary(TransactionEventSchema, event) };
}

function party(
  name: "sender" | "recipient",
  value: unknown,
): { sender?: JsonObject; recipient?: JsonObject } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  if (Object.keys(value).length === 0) return {};
  return { [name]: value as JsonObject };
}
