/**
 * Whether the fan-out pays a funded item. Funding moved the item's total at its quote into the batch's
 * reservation, so from then on that quote binds whatever the time: its expiry governed approval (a batch not
 * approved before its earliest quote expires becomes EXPIRED), never payment, and neither does the pending
 * TTL of the item's transaction (the expiry sweeper leaves funded items alone). Pure: no clock, no I/O.
 *
 * The single payout's rules (executePayout: QUOTE_EXPIRED, the pending TTL) are in domain/payout-execution.
 */
import type { TxStatus } from "../../domain/transaction-status.js";

export interface FundedItemTx {
  readonly status: TxStatus;
  readonly quote: unknown;
}

/** Why a funded item is not paid (it fails and its share returns at completion), or undefined: pay it. */
export function fundedItemRefusal(tx: FundedItemTx): string | undefined {
  if (!tx.quote) return "QUOTE_REQUIRED: the item has no quote";
  // Only a transaction that had already expired when its batch was funded.
  if (tx.status !== "PENDING") return `TRANSACTION_NOT_PENDING: the item's transaction is ${tx.status}`;
  return undefined;
}
