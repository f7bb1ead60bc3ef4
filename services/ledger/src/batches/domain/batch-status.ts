/**
 * The batch and item state machines (payouts.ledger.v1.BatchStatus / BatchItemStatus by name without the
 * prefix). Pure: no I/O.
 *
 *   DRAFT → VALIDATING → VALIDATED → (AWAITING_APPROVAL →) PROCESSING → COMPLETED
 *   DRAFT, VALIDATING, VALIDATED, AWAITING_APPROVAL → CANCELLED;  VALIDATED, AWAITING_APPROVAL → EXPIRED
 *   VALIDATED, AWAITING_APPROVAL → VALIDATING (items changed before funding); VALIDATING → DRAFT (all removed)
 */
export const BATCH_STATUSES = [
  "DRAFT",
  "VALIDATING",
  "VALIDATED",
  "AWAITING_APPROVAL",
  "PROCESSING",
  "COMPLETED",
  "CANCELLED",
  "EXPIRED",
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export const ITEM_STATUSES = [
  "VALIDATING",
  "INVALID",
  "EXCLUDED",
  "PENDING",
  "PROCESSING",
  "SUCCESS",
  "FAILED",
  "REFUNDED",
  "CANCELLED",
] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

const NEXT: Readonly<Record<BatchStatus, readonly BatchStatus[]>> = {
  DRAFT: ["VALIDATING", "CANCELLED"],
  VALIDATING: ["VALIDATED", "DRAFT", "CANCELLED"],
  VALIDATED: ["VALIDATING", "AWAITING_APPROVAL", "PROCESSING", "CANCELLED", "EXPIRED"],
  AWAITING_APPROVAL: ["VALIDATING", "PROCESSING", "CANCELLED", "EXPIRED"],
  PROCESSING: ["COMPLETED"],
  COMPLETED: [],
  CANCELLED: [],
  EXPIRED: [],
};

export function canMoveBatch(from: BatchStatus, to: BatchStatus): boolean {
  return NEXT[from].includes(to);
}

export const isBatchStatus = (s: string): s is BatchStatus =>
  (BATCH_STATUSES as readonly string[]).includes(s);
export const isItemStatus = (s: string): s is ItemStatus => (ITEM_STATUSES as readonly string[]).includes(s);

/** Items may be added, replaced or removed, and the batch cancelled, only before funding. */
export const EDITABLE_STATUSES: readonly BatchStatus[] = [
  "DRAFT",
  "VALIDATING",
  "VALIDATED",
  "AWAITING_APPROVAL",
];

export function isEditable(status: BatchStatus): boolean {
  return EDITABLE_STATUSES.includes(status);
}

/** Approval applies to a batch whose every item has a result. */
export function isApprovable(status: BatchStatus): boolean {
  return status === "VALIDATED" || status === "AWAITING_APPROVAL";
}

/** What a batch becomes after one more approval: funded once the approvals it requires are in. */
export function afterApproval(approvals: number, required: number): "AWAITING_APPROVAL" | "PROCESSING" {
  return approvals >= required ? "PROCESSING" : "AWAITING_APPROVAL";
}

/** Items that funding pays: their PENDING transaction waits for the reservation. */
export const PAYABLE: readonly ItemStatus[] = ["PENDING"];

/** A funded item is final once its payout succeeded, failed (reversed) or was refunded. */
export function isItemFinal(status: ItemStatus): boolean {
  return (
    status === "SUCCESS" ||
    status === "FAILED" ||
    status === "REFUNDED" ||
    status === "INVALID" ||
    status === "EXCLUDED" ||
    status === "CANCELLED"
  );
}

/** The item status that follows its transaction's arrival in `txStatus`; undefined when it does not move. */
export function itemStatusForTransaction(txStatus: string): ItemStatus | undefined {
  switch (txStatus) {
    case "PROCESSING":
    case "SUCCESS":
    case "FAILED":
    case "REFUNDED":
      return txStatus;
    default:
      return undefined;
  }
}

/** A child batch copies exactly these items of its COMPLETED parent: never a paid one. */
export const RETRYABLE: readonly ItemStatus[] = ["FAILED", "EXCLUDED"];

export type BatchCounts = Readonly<Record<ItemStatus, number>> & { readonly total: number };

export function countItems(statuses: readonly ItemStatus[]): BatchCounts {
  const counts = Object.fromEntries(ITEM_STATUSES.map((s) => [s, 0])) as Record<ItemStatus, number>;
  for (const s of statuses) counts[s] += 1;
  return { ...counts, total: statuses.length };
}
