/**
 * Stored batches and items as payouts.ledger.v1 messages (proto enums by name, decimals as strings).
 */
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { toDecimalString } from "@payouts/platform/money/decimal";
import {
  type Batch,
  type BatchItem,
  type BatchItemInput,
  BatchItemInputSchema,
  BatchItemSchema,
  BatchItemStatus,
  BatchSchema,
  BatchStatus,
  NameMatch,
  NameMismatchPolicy,
} from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { quoteMessage } from "../proto/transaction-message.js";
import type { StoredTransaction } from "../store/transaction-store.js";
import type { BatchStatus as BatchStatusName, ItemStatus } from "./domain/batch-status.js";
import type { BatchView, StoredItem } from "./store/batch-store.js";

const ts = (d: Date | undefined) => (d ? timestampFromDate(d) : undefined);

export function toBatchMessage(b: BatchView): Batch {
  const c = b.counts;
  return create(BatchSchema, {
    batchId: b.batchId,
    partnerId: b.partnerId,
    status: BatchStatus[b.status],
    requiredApprovals: b.requiredApprovals,
    approvals: b.approvals.map((a) => ({ approverId: a.approverId, at: timestampFromDate(a.at) })),
    nameMismatchPolicy: NameMismatchPolicy[b.nameMismatchPolicy],
    counts: {
      total: c.total,
      validating: c.VALIDATING,
      invalid: c.INVALID,
      excluded: c.EXCLUDED,
      pending: c.PENDING,
      processing: c.PROCESSING,
      succeeded: c.SUCCESS,
      failed: c.FAILED,
      refunded: c.REFUNDED,
      cancelled: c.CANCELLED,
    },
    totalUsd: toDecimalString(b.totalUsd),
    reservedUsd: toDecimalString(b.heldUsd),
    releasedUsd: b.releasedUsd ? toDecimalString(b.releasedUsd) : "0",
    contentSha256: b.contentSha256,
    source: b.source,
    parentBatchId: b.parentBatchId,
    cancelReason: b.cancelReason,
    createdAt: ts(b.createdAt),
    validatedAt: ts(b.validatedAt),
    fundedAt: ts(b.fundedAt),
    completedAt: ts(b.completedAt),
    expiresAt: ts(b.expiresAt),
  });
}

export function toItemMessage(item: StoredItem, tx: StoredTransaction | undefined): BatchItem {
  return create(BatchItemSchema, {
    batchId: item.batchId,
    itemRef: item.itemRef,
    rowNumber: item.rowNumber,
    status: BatchItemStatus[item.status],
    input: itemInputOf(item.input),
    errorCode: item.errorCode,
    errorField: item.errorField,
    errorMessage: item.errorMessage,
    verifiedName: item.verifiedName,
    nameMatch: NameMatch[item.nameMatch],
    txId: item.txId ?? "",
    quote: tx?.quote ? quoteMessage(tx.quote) : undefined,
    totalUsd: item.totalUsd ? toDecimalString(item.totalUsd) : "",
    failureReason: item.failureReason,
    updatedAt: timestampFromDate(item.updatedAt),
  });
}

/** The stored input (proto JSON) as the message. */
export function itemInputOf(json: Record<string, unknown>): BatchItemInput {
  return fromJson(BatchItemInputSchema, json as JsonValue, { ignoreUnknownFields: true });
}

export function batchStatusName(status: BatchStatus): BatchStatusName | undefined {
  if (status === BatchStatus.UNSPECIFIED) return undefined;
  return BatchStatus[status] as BatchStatusName;
}

export function itemStatusName(status: BatchItemStatus): ItemStatus | undefined {
  if (status === BatchItemStatus.UNSPECIFIED) return undefined;
  return BatchItemStatus[status] as ItemStatus;
}
