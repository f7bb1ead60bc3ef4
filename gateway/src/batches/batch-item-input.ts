/**
 * One item of a batch as the partner sent it (`BatchItemRequest`: a JSON item, a CSV row, an NDJSON line),
 * read with the item's shape and turned into the ledger's BatchItemInput. The destination goes through the
 * same mapping as lookupPaymentCode's body (`http/lookup-input.ts`).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { BatchItemInputSchema } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { ApiError } from "../http/api-error.js";
import { lookupInputOf } from "../http/lookup-input.js";
import { readBodyAt } from "../http/read-body.js";
import { BatchItemRequest } from "../operations/partner/batch-api.js";

export type BatchItemInit = MessageInitShape<typeof BatchItemInputSchema>;

export function batchItemInput(item: BatchItemRequest): BatchItemInit {
  // qr_string, the legacy alias, is merged into payment_destination as lookupPaymentCode merges it.
  const { lookup } = lookupInputOf(item);
  return {
    itemRef: item.item_ref,
    expectedName: item.expected_name ?? "",
    destination: lookup,
    amount: item.amount,
    partnerTransactionId: item.partner_transaction_id,
    partnerAppId: item.partner_app_id ?? "",
    walletIdentifier: item.wallet_identifier ?? "",
  };
}

/** Reads one item (`prefix` names it in errors: `items[3].`, `rows[12].`). */
export function readBatchItem(raw: unknown, prefix: string): BatchItemInit {
  return batchItemInput(readBodyAt(BatchItemRequest, raw, prefix));
}

/** Refuses a second item with the same item_ref, naming where it is. */
export class ItemRefSet {
  private readonly seen = new Set<string>();

  add(itemRef: string, where: string): void {
    if (this.seen.has(itemRef)) {
      throw new ApiError(
        400,
        "DUPLICATE_ITEM_REF",
        `${where} repeats item_ref ${itemRef}`,
        `${where}.item_ref`,
      );
    }
    this.seen.add(itemRef);
  }
}
