/**
 * The ledger's batch messages as the wire shapes of `operations/partner/batch-api.ts`. Enum values keep
 * their proto names without the prefix (BATCH_STATUS_VALIDATED → VALIDATED); an empty string is null.
 */
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import {
  type BatchItem as BatchItemMessage,
  BatchItemStatus,
  type Batch as BatchMessage,
  BatchStatus,
  NameMatch,
  NameMismatchPolicy,
} from "@payouts/proto/payouts/ledger/v1/batches_pb";
import {
  BATCH_ITEM_STATUSES,
  BATCH_SOURCES,
  BATCH_STATUSES,
  type Batch,
  type BatchItem,
  type BatchItemStatusName,
  type BatchStatusName,
  NAME_MATCHES,
} from "../operations/partner/batch-api.js";

const orNull = (text: string): string | null => (text === "" ? null : text);

/** The wire name of a proto enum value (the generated enum already drops the prefix), checked against `names`. */
function wireName<const N extends readonly string[]>(
  enumObject: Record<number, string>,
  value: number,
  names: N,
): N[number] {
  const name = enumObject[value];
  if (name === undefined || !names.includes(name))
    throw new Error(`ledger answered an unknown value ${value}`);
  return name as N[number];
}

export const batchStatusName = (status: BatchStatus): BatchStatusName =>
  wireName(BatchStatus, status, BATCH_STATUSES);
export const batchItemStatusName = (status: BatchItemStatus): BatchItemStatusName =>
  wireName(BatchItemStatus, status, BATCH_ITEM_STATUSES);

export const batchStatusFromName = (name: BatchStatusName): BatchStatus => BatchStatus[name];
export const batchItemStatusFromName = (name: BatchItemStatusName): BatchItemStatus => BatchItemStatus[name];

export const policyName = (policy: NameMismatchPolicy): "exclude" | "include" =>
  policy === NameMismatchPolicy.INCLUDE ? "include" : "exclude";
export const policyFromName = (name: "exclude" | "include" | undefined): NameMismatchPolicy =>
  name === "include" ? NameMismatchPolicy.INCLUDE : NameMismatchPolicy.EXCLUDE;

const sourceName = (source: string): Batch["source"] =>
  (BATCH_SOURCES as readonly string[]).includes(source) ? (source as Batch["source"]) : "json";

export function renderBatch(batch: BatchMessage | undefined): Batch {
  if (batch === undefined) throw new Error("ledger answered no batch");
  const c = batch.counts;
  return {
    batch_id: batch.batchId,
    partner_id: batch.partnerId,
    status: batchStatusName(batch.status),
    required_approvals: batch.requiredApprovals || 1,
    approvals: batch.approvals.map((a) => ({ approver_id: a.approverId, at: timestampIso(a.at) ?? "" })),
    name_mismatch_policy: policyName(batch.nameMismatchPolicy),
    counts: {
      total: c?.total ?? 0,
      validating: c?.validating ?? 0,
      invalid: c?.invalid ?? 0,
      excluded: c?.excluded ?? 0,
      pending: c?.pending ?? 0,
      processing: c?.processing ?? 0,
      succeeded: c?.succeeded ?? 0,
      failed: c?.failed ?? 0,
      refunded: c?.refunded ?? 0,
      cancelled: c?.cancelled ?? 0,
    },
    total_usd: batch.totalUsd || "0",
    reserved_usd: batch.reservedUsd || "0",
    released_usd: batch.releasedUsd || "0",
    content_sha256: orNull(batch.contentSha256),
    source: sourceName(batch.source),
    parent_batch_id: orNull(batch.parentBatchId),
    cancel_reason: orNull(batch.cancelReason),
    created_at: timestampIso(batch.createdAt) ?? "",
    validated_at: timestampIso(batch.validatedAt),
    funded_at: timestampIso(batch.fundedAt),
    completed_at: timestampIso(batch.completedAt),
    expires_at: timestampIso(batch.expiresAt),
  };
}

export function renderBatchItem(item: BatchItemMessage): BatchItem {
  const quote = item.quote;
  return {
    item_ref: item.itemRef,
    row_number: item.rowNumber,
    status: batchItemStatusName(item.status),
    error_code: orNull(item.errorCode),
    error_field: orNull(item.errorField),
    error_message: orNull(item.errorMessage),
    verified_name: orNull(item.verifiedName),
    name_match: wireName(NameMatch, item.nameMatch || NameMatch.NOT_CHECKED, NAME_MATCHES),
    tx_id: orNull(item.txId),
    partner_transaction_id: item.input?.partnerTransactionId ?? "",
    amount: item.input?.amount || quote?.amount || "0",
    currency: orNull(quote?.currency ?? ""),
    amount_usd: orNull(quote?.amountUsd ?? ""),
    fee: orNull(quote?.fee ?? ""),
    total_usd: orNull(item.totalUsd),
    failure_reason: orNull(item.failureReason),
    updated_at: timestampIso(item.updatedAt),
  };
}
