/**
 * The body of a partner notification. It is serialised once, here, to the exact bytes that are signed
 * and sent: callers must never re-stringify it, or the signature stops matching.
 *
 * Monetary fields are written by hand as JSON numbers with a fixed number of decimals (`0.50`, not `0.5`),
 * from decimal strings, so no value ever passes through a JS double.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { TransactionEvent } from "@payouts/proto/payouts/events/v1/events_pb";
import { Decimal } from "decimal.js";
import { isTransactionEventType, notificationStatus, type TransactionEventType } from "./event-kinds.js";

export interface NotificationBodyOptions {
  /** Decimals for fee, percentage_fee and fixed_fee (notifications use 2). */
  readonly dp: number;
  /**
   * Decimals for the local `amount`: the currency's ISO 4217 minor units, supplied by the
   * caller. When omitted the amount is written exactly as stored, without trailing zeros.
   */
  readonly amountDp?: number;
  /** Marks a test notification (`"test": true`), so a receiver never books it as a real outcome. */
  readonly test?: boolean;
}

/** A transaction event's facts; `batchId` and `itemRef` are set when the payout was an item of a bulk payout. */
type TransactionFacts = Partial<Pick<TransactionEvent, "batchId" | "itemRef">> &
  Pick<
    TransactionEvent,
    | "eventId"
    | "eventType"
    | "occurredAt"
    | "txId"
    | "amount"
    | "fee"
    | "percentageFee"
    | "fixedFee"
    | "sender"
    | "recipient"
    | "refundReason"
    | "failureReason"
  >;

/** Builds the signed body of the notification for `event`; throws if the event cannot be notified. */
export function buildNotificationBody(event: TransactionFacts, options: NotificationBodyOptions): Buffer {
  const eventType = notifiedType(event.eventType);
  const dp = checkedDp(options.dp);
  const members = [
    member("tx_id", JSON.stringify(requireText(event.txId, "tx_id"))),
    ...(event.batchId ? [member("batch_id", JSON.stringify(event.batchId))] : []),
    ...(event.itemRef ? [member("item_ref", JSON.stringify(event.itemRef))] : []),
    member("status", JSON.stringify(notificationStatus(eventType))),
    ...moneyMember("amount", event.amount, options.amountDp),
    ...moneyMember("fee", event.fee, dp),
    ...moneyMember("percentage_fee", event.percentageFee, dp),
    ...moneyMember("fixed_fee", event.fixedFee, dp),
    ...objectMember("sender", event.sender),
    ...objectMember("recipient", event.recipient),
    ...reasonMember(eventType, event),
    member("event_id", JSON.stringify(requireText(event.eventId, "event_id"))),
    member("event_type", JSON.stringify(eventType)),
    member("occurred_at", JSON.stringify(isoUtc(event.occurredAt))),
    ...(options.test === true ? [member("test", "true")] : []),
  ];
  return Buffer.from(`{${members.join(",")}}`, "utf8");
}

/**
 * Formats a decimal string as a JSON number with exactly `dp` decimals, rounding half-up (as all partner
 * money is rendered). Without `dp` the exact value is written.
 */
export function formatJsonDecimal(value: string, dp?: number): string {
  const decimal = parseDecimal(value);
  const text = dp === undefined ? decimal.toFixed() : decimal.toFixed(checkedDp(dp), Decimal.ROUND_HALF_UP);
  // A negative value that rounds to zero would print "-0.00"; the sign carries no information there.
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

function notifiedType(eventType: string): TransactionEventType {
  if (!isTransactionEventType(eventType)) {
    throw new Error(`event type ${JSON.stringify(eventType)} does not produce a notification`);
  }
  return eventType;
}

function member(name: string, jsonValue: string): string {
  return `${JSON.stringify(name)}:${jsonValue}`;
}

// Proto3 strings default to "": an empty money field means "not known", so the optional field is left out.
function moneyMember(name: string, value: string, dp: number | undefined): string[] {
  return value === "" ? [] : [member(name, formatJsonDecimal(value, dp))];
}

function objectMember(name: string, value: JsonObject | undefined): string[] {
  if (value === undefined || Object.keys(value).length === 0) return [];
  return [member(name, JSON.stringify(value))];
}

function reasonMember(eventType: TransactionEventType, event: TransactionFacts): string[] {
  if (eventType === "transaction.refunded" && event.refundReason !== "") {
    return [member("refund_reason", JSON.stringify(event.refundReason))];
  }
  if (eventType === "transaction.failed" && event.failureReason !== "") {
    return [member("failure_reason", JSON.stringify(event.failureReason))];
  }
  return [];
}

// Plain decimal notation only (what NUMERIC and the proto decimal strings carry): decimal.js would also
// accept "NaN", "Infinity", exponents and hex, none of which is a valid money value here.
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

function parseDecimal(value: string): Decimal {
  if (!PLAIN_DECIMAL.test(value)) throw new Error(`${JSON.stringify(value)} is not a plain decimal number`);
  return new Decimal(value);
}

function checkedDp(dp: number): number {
  if (!Number.isInteger(dp) || dp < 0 || dp > 10)
    throw new RangeError(`dp must be an integer 0 to 10, got ${dp}`);
  return dp;
}

function requireText(value: string, name: string): string {
  if (value === "") throw new Error(`event has no ${name}`);
  return value;
}

function isoUtc(timestamp: Timestamp | undefined): string {
  if (timestamp === undefined) throw new Error("event has no occurred_at");
  const millis = timestamp.seconds * 1000n + BigInt(Math.floor(timestamp.nanos / 1_000_000));
  return new Date(Number(millis)).toISOString();
}
