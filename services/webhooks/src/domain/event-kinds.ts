/**
 * Which events become partner notifications, where each one is sent, and which webhook configurations
 * want it: three transaction outcomes, statement.closed (a partner's statement day closed) and
 * batch.completed (every item of a bulk payout reached its end). Other event
 * types on the topic (transaction.processing, transaction.expired, ...) never produce a notification,
 * whatever the filter says.
 */
import { fail, ok, type Result } from "./result.js";

export const TRANSACTION_EVENT_TYPES = [
  "transaction.success",
  "transaction.refunded",
  "transaction.failed",
] as const;

export type TransactionEventType = (typeof TRANSACTION_EVENT_TYPES)[number];

/** A partner's statement day closed; its payload is a payouts.events.v1.StatementEvent. */
export const STATEMENT_CLOSED = "statement.closed";

/** Every item of a partner's bulk payout reached its end; its payload is a payouts.events.v1.BatchEvent. */
export const BATCH_COMPLETED = "batch.completed";

export const NOTIFIED_EVENT_TYPES = [...TRANSACTION_EVENT_TYPES, STATEMENT_CLOSED, BATCH_COMPLETED] as const;

export type NotifiedEventType = (typeof NOTIFIED_EVENT_TYPES)[number];

/**
 * Filter entry that selects every notified event type, including ones added later (statement.closed and
 * batch.completed reach `*` configurations too).
 */
export const ALL_EVENTS = "*";

export type EventFilterEntry = NotifiedEventType | typeof ALL_EVENTS;

/** The `status` value a notification carries. */
export type NotificationStatus = "SUCCESS" | "REFUNDED" | "FAILED";

// The success and refunded paths are the partner API's; /failed extends them for the documented FAILED
// state, and /webhooks/statements/closed and /webhooks/batches/completed follow the same
// <resource>/<what happened> pattern.
const PATHS: Readonly<Record<NotifiedEventType, string>> = {
  "transaction.success": "/webhooks/transactions/success",
  "transaction.refunded": "/webhooks/transactions/refunded",
  "transaction.failed": "/webhooks/transactions/failed",
  "statement.closed": "/webhooks/statements/closed",
  "batch.completed": "/webhooks/batches/completed",
};

const STATUSES: Readonly<Record<TransactionEventType, NotificationStatus>> = {
  "transaction.success": "SUCCESS",
  "transaction.refunded": "REFUNDED",
  "transaction.failed": "FAILED",
};

export function isNotifiedEventType(eventType: string): eventType is NotifiedEventType {
  return Object.hasOwn(PATHS, eventType);
}

export function isTransactionEventType(eventType: string): eventType is TransactionEventType {
  return Object.hasOwn(STATUSES, eventType);
}

/** Path appended to a configuration's base URL, e.g. `/webhooks/transactions/success`. */
export function receiverPath(eventType: NotifiedEventType): string {
  return PATHS[eventType];
}

/** Full delivery URL for a base URL already normalised by `validateReceiverUrl` (no trailing slash). */
export function deliveryUrl(baseUrl: string, eventType: NotifiedEventType): string {
  return `${baseUrl}${receiverPath(eventType)}`;
}

export function notificationStatus(eventType: TransactionEventType): NotificationStatus {
  return STATUSES[eventType];
}

/** True when a configuration with this filter should receive `eventType`. */
export function matchesFilter(filter: readonly string[], eventType: string): boolean {
  if (!isNotifiedEventType(eventType)) return false;
  return filter.includes(ALL_EVENTS) || filter.includes(eventType);
}

/**
 * Validates a partner-supplied filter and returns it normalised: duplicates removed, and `["*"]` alone
 * when `*` is present (it already covers everything else). Names are case-sensitive.
 */
export function validateEventFilter(filter: unknown): Result<EventFilterEntry[]> {
  if (!Array.isArray(filter) || filter.length === 0) {
    return invalidFilter(`events must be a non-empty list of ${describeAllowed()}`);
  }
  const unknown = filter.filter((entry) => !isFilterEntry(entry));
  if (unknown.length > 0) {
    const names = unknown.map((entry) => JSON.stringify(entry)).join(", ");
    return invalidFilter(`unknown event type(s) ${names}; allowed: ${describeAllowed()}`);
  }
  const entries = filter as EventFilterEntry[];
  if (entries.includes(ALL_EVENTS)) return ok([ALL_EVENTS]);
  return ok(NOTIFIED_EVENT_TYPES.filter((type) => entries.includes(type)));
}

function isFilterEntry(entry: unknown): entry is EventFilterEntry {
  return entry === ALL_EVENTS || (typeof entry === "string" && isNotifiedEventType(entry));
}

function describeAllowed(): string {
  return [...NOTIFIED_EVENT_TYPES, ALL_EVENTS].map((name) => `"${name}"`).join(", ");
}

function invalidFilter(message: string): Result<never> {
  return fail("INVALID_FIELD", message, "events");
}
