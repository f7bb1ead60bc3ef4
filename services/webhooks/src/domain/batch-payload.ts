/**
 * The body of a batch.completed notification: the bulk payout's outcome, serialised once to the exact bytes
 * that are signed and sent. It follows statement.closed's conventions: snake_case, USD amounts as decimal
 * strings exactly as the ledger wrote them (`"104.5"`), timestamps in ISO 8601 UTC, and the event's id,
 * type and time last. `parent_batch_id` is null for a batch that retries no other.
 */
import type { BatchEvent } from "@payouts/proto/payouts/events/v1/events_pb";
import { BATCH_COMPLETED } from "./event-kinds.js";
import { count, decimal, eventBody, text } from "./payload-fields.js";

/** Builds the signed body for `event`; throws when the event cannot be notified. */
export function buildBatchCompletedBody(event: BatchEvent): Buffer {
  return eventBody(event, BATCH_COMPLETED, () => ({
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
  }));
}
