/**
 * The request-level checks of a batch's items, before anything is stored: sizes, item references and the
 * fields every item needs. An item's destination, amount and corridor are checked later, item by item, by
 * validation (their refusals make the item INVALID, not the request). Pure.
 */
import { LedgerFailure, missingField } from "../../domain/ledger-failure.js";
import { BATCH, batchFailure } from "./batch-failure.js";

/** Items one CreateBatch or PutBatchItems request may carry. */
export const MAX_ITEMS_PER_REQUEST = 1_000;
/** Items one batch may hold. */
export const MAX_ITEMS_PER_BATCH = 10_000;

export interface ItemInputFacts {
  readonly itemRef: string;
  readonly amount: string;
  readonly hasDestination: boolean;
}

/** Refuses the request's items as a whole: BATCH_TOO_LARGE, MISSING_REQUIRED_FIELD, INVALID_FIELD, DUPLICATE_ITEM_REF. */
export function checkItemInputs(items: readonly ItemInputFacts[], alreadyInBatch = 0): void {
  if (items.length > MAX_ITEMS_PER_REQUEST) {
    throw tooLarge(`at most ${MAX_ITEMS_PER_REQUEST} items per request`);
  }
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const at = `items[${i}]`;
    if (item.itemRef === "") throw missingField(`${at}.item_ref`);
    if (item.itemRef.length > 64 || !/^[\x21-\x7e]+$/.test(item.itemRef)) {
      throw new LedgerFailure(
        "INVALID_FIELD",
        `${at}.item_ref must be 1–64 printable ASCII characters`,
        `${at}.item_ref`,
      );
    }
    if (seen.has(item.itemRef))
      throw batchFailure(BATCH.of("DUPLICATE_ITEM_REF", `${at}.item_ref`, item.itemRef));
    seen.add(item.itemRef);
    if (!item.hasDestination) throw missingField(`${at}.destination`);
    if (item.amount === "") throw missingField(`${at}.amount`);
  });
  checkBatchSize(alreadyInBatch + items.length);
}

/** BATCH_TOO_LARGE when a batch would hold more than MAX_ITEMS_PER_BATCH items. */
export function checkBatchSize(items: number): void {
  if (items > MAX_ITEMS_PER_BATCH) throw tooLarge(`a batch holds at most ${MAX_ITEMS_PER_BATCH} items`);
}

function tooLarge(message: string): LedgerFailure {
  return new LedgerFailure("BATCH_TOO_LARGE", message, "items");
}

/** required_approvals: 0 (unset) means 1; otherwise 1 or 2. */
export function readRequiredApprovals(value: number): 1 | 2 {
  if (value === 0 || value === 1) return 1;
  if (value === 2) return 2;
  throw new LedgerFailure("INVALID_FIELD", "required_approvals must be 1 or 2", "required_approvals");
}
