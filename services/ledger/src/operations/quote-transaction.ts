/**
 * getQuotation in one call: the transaction's rules, its binding price from pricing, and the quote stored
 * on it (a newer quote replaces the older one). Not a status change, so no history row and no event. Two
 * statements of its own (the row, then the UPDATE) around the pricing call, no database transaction.
 */
import type { Quote } from "@payouts/proto/payouts/common/v1/common_pb";
import { LedgerFailure, notFound } from "../domain/ledger-failure.js";
import { quotingRefusal } from "../domain/payout-execution.js";
import { type QuoteTerms, readQuoteTerms } from "../domain/quote-terms.js";
import type { BindingPricer, PriceCall } from "../pricing/binding-pricer.js";
import { quoteInputOf } from "../proto/transaction-message.js";
import { findTransaction, type StoredTransaction, saveQuote } from "../store/transaction-store.js";
import { fixedAmountOf } from "./create-transaction.js";
import type { LedgerDeps } from "./ledger-deps.js";

export interface QuoteTransactionInput {
  readonly partnerId: string;
  readonly txId: string;
  /** The currency the caller named, any case; "" when none. */
  readonly currency: string;
  /** The local amount to price, as the caller sent it. */
  readonly amount: string;
}

/**
 * Refusals in this order: TRANSACTION_NOT_FOUND, TRANSACTION_NOT_PENDING, INVALID_FIELD (`currency`),
 * then pricing's (relayed as pricing gave them, or SERVICE_UNAVAILABLE), then INVALID_AMOUNT when the
 * destination fixes another amount. Nothing is stored unless every check passed.
 */
export async function quoteTransaction(
  deps: LedgerDeps,
  pricer: BindingPricer | undefined,
  input: QuoteTransactionInput,
  call: PriceCall = {},
): Promise<Quote> {
  let tx = await quotableTransaction(deps, input);
  if (!pricer) {
    throw new LedgerFailure(
      "SERVICE_UNAVAILABLE",
      "no pricing service is configured to price this transaction",
    );
  }
  // The price depends only on the partner, the corridor, the currency and the amount, none of which a
  // transaction ever changes: one price serves every attempt below.
  const quote = await pricer.price(
    { partnerId: input.partnerId, countryCode: tx.countryCode, currency: tx.currency, amount: input.amount },
    call,
  );
  const terms = termsFor(tx, quote);
  // The UPDATE applies only while the row is still as read (PENDING, same status sequence). A status
  // change in between makes it apply to nothing; the rules are then checked again on a fresh read.
  while (!(await saveQuote(deps.db, tx, terms, deps.now()))) {
    tx = await quotableTransaction(deps, input);
  }
  return quote;
}

async function quotableTransaction(
  deps: LedgerDeps,
  input: QuoteTransactionInput,
): Promise<StoredTransaction> {
  const tx = await findTransaction(deps.db, input.txId, { partnerId: input.partnerId });
  if (!tx) throw notFound(input.txId);
  const refusal = quotingRefusal(tx, deps.now(), input.currency);
  if (refusal) throw refusal;
  return tx;
}

/** The quote's terms as the ledger can debit them, for this transaction's currency and fixed amount. */
function termsFor(tx: StoredTransaction, quote: Quote): QuoteTerms {
  const terms = readQuoteTerms(quoteInputOf(quote), tx.currency);
  const fixed = fixedAmountOf(tx.destination);
  if (fixed !== "" && !terms.amount.eq(fixed)) {
    throw new LedgerFailure("INVALID_AMOUNT", `this destination fixes the amount to ${fixed}`, "amount");
  }
  return terms;
}
