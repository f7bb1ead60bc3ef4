/**
 * The refusals of bulk payouts (BatchService), with their gRPC status and wording: a table of their own
 * beside the ledger's (ledger-failure.ts), thrown as LedgerFailure like every ledger refusal
 * (batches/domain/batch-failure.ts). Pure.
 */
import { defineReasons } from "@payouts/platform/reasons/define-reasons";

export const BATCH = defineReasons({
  BATCH_NOT_FOUND: {
    status: "NotFound",
    template: (batchId: string) => ({ message: `batch ${batchId} not found`, field: "batch_id" }),
  },
  BATCH_DUPLICATE: {
    status: "FailedPrecondition",
    template: (batchId: string) => ({
      message: `batch ${batchId} already holds this content`,
      field: "content_sha256",
    }),
  },
  BATCH_NOT_EDITABLE: {
    status: "FailedPrecondition",
    template: (batchId: string, status: string) => ({
      message: `batch ${batchId} is ${status}: items change only before funding`,
    }),
  },
  BATCH_NOT_VALIDATED: {
    status: "FailedPrecondition",
    template: (batchId: string, status: string) => ({
      message: `batch ${batchId} is ${status}: only a validated batch can be approved`,
    }),
  },
  BATCH_EXPIRED: {
    status: "FailedPrecondition",
    template: (batchId: string) => ({ message: `batch ${batchId} expired: its first quote expired` }),
  },
  BATCH_NOT_RETRYABLE: {
    status: "FailedPrecondition",
    template: (batchId: string, why: string) => ({ message: `batch ${batchId} cannot be retried: ${why}` }),
  },
  BATCH_ALREADY_APPROVED_BY: {
    status: "FailedPrecondition",
    template: (approverId: string) => ({
      message: `${approverId} already approved this batch: a second approval needs another credential`,
      field: "approver_id",
    }),
  },
  BATCH_TOO_LARGE: {},
  DUPLICATE_ITEM_REF: {
    template: (field: string, itemRef: string) => ({
      message: `item_ref ${itemRef} appears more than once`,
      field,
    }),
  },
});

export const BATCH_REASONS = BATCH.codes;
export type BatchReason = (typeof BATCH_REASONS)[number];
