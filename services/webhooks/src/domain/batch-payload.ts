/**
 * The body of a batch.completed notification: the bulk payout's outcome, serialised once to the exact bytes
 * that are signed and sent. It follows statement.closed's conventions: snake_case, USD amounts as decimal
 * strings exactly as the ledger wrote them (`"104.5"`), timestamps in ISO 8601 UTC, and the event's id,
 * type and time last. `parent_batch_id` is null for a batch that retries no other.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { BatchEvent } from "@payouts/proto/payouts/events/v1/events_pb";
import { BATCH_COMPLETED } from "./event-kinds.js";

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Builds the signed body for `event`; throws when the event cannot be notified. */
export function buildBatchCompletedBody(event: BatchEvent): Buffer {
  if (event.eventType !== BATCH_COMPLETED) {
    throw new Error(`event type ${JSON.stringify(event.eventType)} is not ${BATCH_COMPLETED}`);
  }
  const body = {
    batch_id: text(event.batchId, "batch_id"),
    partner_id: text(event.partnerId, "partner_id"),
    status: text(event.status, "status"),
    parent_batch_id: event.parentBatchId === "" ? null : event.parentBatchId,
    counts: {
      total: count(event.total, "total"),
      succeeded: count(event.succeeded, "succeeded"),
      failed: count(event.failed, "failed"),
      invalid: count(event.invalid, "invalid"),
      excluded: count(event.excluded, "excluded"),
    },
    paid_usd: decimal(event.paidUsd, "paid_usd"),
    released_usd: decimal(event.releasedUsd, "released_usd"),
    event_id: text(event.eventId, "event_id"),
    event_type: BATCH_COMPLETED,
    occurred_at: iso(event.occurredAt, "occurred_at"),
  };
  return Buffer.from(JSON.stringify(body), "utf8");
}

function text(value: string, field: string): string {
  if (value === "") throw new Error(`${field} is missing`);
  return value;
}

function count(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0) throw new Error(`${field} ${value} is not a count`);
  return value;
}

function decimal(value: string, field: string): string {
  if (!DECIMAL.test(value)) throw new Error(`${field} ${JSON.stringify(value)} is not valid`);
  return value;
}

function iso(timestamp: BatchEvent["occurredAt"], field: string): string {
  if (timestamp === undefined) throw new Error(`${field} is missing`);
  return timestampDate(timestamp).toISOString();
}
