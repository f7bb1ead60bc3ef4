/**
 * Checks for the fields of an event-specific notification body (statement.closed, batch.completed): each
 * answers the value as it goes into the body, or throws naming the field, so an event that cannot be
 * notified is refused whole. Decimals are taken exactly as the ledger wrote them.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampDate } from "@bufbuild/protobuf/wkt";

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** What every event-specific body ends with: the event's id, type and time. */
interface EventHeader {
  readonly eventId: string;
  readonly eventType: string;
  readonly occurredAt?: Timestamp | undefined;
}

/**
 * The exact bytes that are signed and sent for `event` of type `eventType`: the fields `fieldsOf` checks
 * and answers, then the event's id, type and time. An event of another type is refused before any field.
 */
export function eventBody(event: EventHeader, eventType: string, fieldsOf: () => object): Buffer {
  if (event.eventType !== eventType) {
    throw new Error(`event type ${JSON.stringify(event.eventType)} is not ${eventType}`);
  }
  const body = {
    ...fieldsOf(),
    event_id: text(event.eventId, "event_id"),
    event_type: eventType,
    occurred_at: iso(event.occurredAt, "occurred_at"),
  };
  return Buffer.from(JSON.stringify(body), "utf8");
}

export function text(value: string, field: string): string {
  if (value === "") throw new Error(`${field} is missing`);
  return value;
}

export function count(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0) throw new Error(`${field} ${value} is not a count`);
  return value;
}

export function decimal(value: string, field: string): string {
  return matching(value, DECIMAL, field);
}

export function matching(value: string, pattern: RegExp, field: string): string {
  if (!pattern.test(value)) throw new Error(`${field} ${JSON.stringify(value)} is not valid`);
  return value;
}

/** A timestamp in ISO 8601 UTC. */
export function iso(timestamp: Timestamp | undefined, field: string): string {
  if (timestamp === undefined) throw new Error(`${field} is missing`);
  return timestampDate(timestamp).toISOString();
}
