/**
 * getQuotation's binding price, stored on a PENDING transaction (a newer quote replaces the older one).
 * Not a status change, so no history row and no event.
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
  return deps.db.transaction(async (q) => {
    const tx = await findTransaction(q, txId, { partnerId, forUpdate: true });
    if (!tx) throw notFound(txId);
    const refusal = quotingRefusal(tx, now);
    if (refusal) throw refusal;
    const terms = readQuoteTerms(input, tx.currency);
    const fixed = fixedAmountOf(tx.destination);
    if (fixed !== "" && !terms.amount.eq(fixed)) {
      throw new LedgerFailure("INVALID_AMOUNT", `this destination fixes the amount to ${fixed}`, "amount");
    }
    return saveQuote(q, tx.txId, terms, now);
  });
}

export const notFound = (txId: string) =>
  new LedgerFailure("TRANSACTION_NOT_FOUND", `transaction ${txId} not found`, "tx_id");
