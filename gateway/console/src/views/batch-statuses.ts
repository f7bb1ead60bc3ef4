import type { Types } from "../api/admin-api";

/** The filters the API takes, in lifecycle order (the API refuses any other value). */
export const BATCH_STATUSES: readonly Types.Batch["status"][] = [
  "DRAFT",
  "VALIDATING",
  "VALIDATED",
  "AWAITING_APPROVAL",
  "PROCESSING",
  "COMPLETED",
  "CANCELLED",
  "EXPIRED",
];

export const BATCH_ITEM_STATUSES: readonly Types.BatchItem["status"][] = [
  "VALIDATING",
  "INVALID",
  "EXCLUDED",
  "PENDING",
  "PROCESSING",
  "SUCCESS",
  "FAILED",
  "REFUNDED",
  "CANCELLED",
];

/** A batch can still be cancelled: it is not funded, cancelled or expired. */
export const CANCELLABLE: readonly Types.Batch["status"][] = [
  "DRAFT",
  "VALIDATING",
  "VALIDATED",
  "AWAITING_APPROVAL",
];
