/**
 * The outbox payload announcing a completed batch: a payouts.events.v1.BatchEvent, binary-encoded. Keyed on
 * the bus by the batch id (one event per batch: a batch completes once).
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Dec, toDecimalString } from "@payouts/platform/money/decimal";
import { BatchEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import type { BatchCounts } from "../batches/domain/batch-status.js";
import type { EventEnvelope } from "./transaction-event.js";

export const BATCH_COMPLETED = "batch.completed";

export interface CompletedBatch {
  readonly batchId: string;
  readonly partnerId: string;
  readonly parentBatchId: string;
  readonly counts: BatchCounts;
  /** Items whose transaction was paid out and is final: each had a transaction.success or .failed event. */
  readonly executedItems: number;
  readonly paidUsd: Dec;
  readonly releasedUsd: Dec;
}

export function batchCompletedEvent(batch: CompletedBatch, eventId: string, occurredAt: Date): EventEnvelope {
  const event = create(BatchEventSchema, {
    eventId,
    eventType: BATCH_COMPLETED,
    occurredAt: timestampFromDate(occurredAt),
    batchId: batch.batchId,
    partnerId: batch.partnerId,
    status: "COMPLETED",
    parentBatchId: batch.parentBatchId,
    total: batch.counts.total,
    succeeded: batch.counts.SUCCESS,
    failed: batch.counts.FAILED,
    invalid: batch.counts.INVALID,
    excluded: batch.counts.EXCLUDED,
    executedItems: batch.executedItems,
    paidUsd: toDecimalString(batch.paidUsd),
    releasedUsd: toDecimalString(batch.releasedUsd),
  });
  return { eventId, eventType: BATCH_COMPLETED, sequence: 1, payload: toBinary(BatchEventSchema, event) };
}
