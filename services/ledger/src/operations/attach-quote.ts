/**
 * getQuotation's binding price, stored on a PENDING transaction (a newer quote replaces the older one).
 * Not a status change, so no history row and no event. Two statements, no database transaction.
 */
import { LedgerFailure } from "../domain/ledger-failure.js";
import { quotingRefusal } from "../domain/payout-execution.js";
import { type QuoteInput, readQuoteTerms } from "../domain/quote-terms.js";
import { findTransaction, type StoredTransaction, saveQuote } from "../store/transaction-store.js";
import { fixedAmountOf } from "./create-transaction.js";
import type { LedgerDeps } from "./ledger-deps.js";

export async function attachQuote(
  deps: LedgerDeps,
  partnerId: string,
  txId: string,
  input: QuoteInput,
): Promise<StoredTransaction> {
  const now = deps.now();
  // No database transaction: the rules are checked on the row as read, and the UPDATE applies only while
  // the row is still in that state (PENDING, same status sequence; the destination, currency and TTL never
  // change). A status change in between makes it apply to nothing, and the rules are checked again.
  for (;;) {
    const tx = await findTransaction(deps.db, txId, { partnerId });
    if (!tx) throw notFound(txId);
    const refusal = quotingRefusal(tx, now);
    if (refusal) throw refusal;
    const terms = readQuoteTerms(input, tx.currency);
    const fixed = fixedAmountOf(tx.destination);
    if (fixed !== "" && !terms.amount.eq(fixed)) {
      throw new LedgerFailure("INVALID_AMOUNT", `this destination fixes the amount to ${fixed}`, "amount");
    }
    const saved = await saveQuote(deps.db, tx, terms, now);
    if (saved) return saved;
  }
}

export const notFound = (txId: string) =>
  new LedgerFailure("TRANSACTION_NOT_FOUND", `transaction ${txId} not found`, "tx_id");
