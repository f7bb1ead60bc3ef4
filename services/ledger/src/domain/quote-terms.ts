/**
 * The binding price attached to a PENDING transaction. The ledger does not price anything (pricing does);
 * it checks that what it is asked to store is a coherent quote it can debit exactly: every figure a plain
 * decimal that fits NUMERIC(38,18) without rounding, and the fee and total consistent with their parts.
 */
import { type Dec, INTERNAL_SCALE, parseDecimal } from "@payouts/platform/money/decimal";
import type { PayoutPrice } from "@payouts/platform/money/payout-price";
import { invalidField, LedgerFailure, missingField } from "./ledger-failure.js";
import { payoutFee, payoutTotal } from "./posting-rules.js";

export interface QuoteInput {
  readonly quoteId: string;
  readonly amount: string;
  readonly currency: string;
  readonly exchangeRate: string;
  readonly amountUsd: string;
  readonly percentageFee: string;
  readonly fixedFee: string;
  /** Optional cross-checks: when given they must equal the sums of the parts. */
  readonly fee: string;
  readonly totalUsd: string;
  readonly expiresAt: Date | undefined;
}

export interface QuoteTerms extends PayoutPrice {
  readonly quoteId: string;
  readonly expiresAt: Date;
}

/** Largest integer part NUMERIC(38,18) holds. */
const MAX_INTEGER_DIGITS = 20;

export function readQuoteTerms(input: QuoteInput, txCurrency: string): QuoteTerms {
  if (!input.quoteId) throw missingField("quote.quote_id");
  if (input.currency !== txCurrency) {
    throw invalidField("quote.currency", `must be the transaction's currency ${txCurrency}`);
  }
  if (!input.expiresAt || Number.isNaN(input.expiresAt.getTime())) throw missingField("quote.expires_at");
  const terms: QuoteTerms = {
    quoteId: input.quoteId,
    amount: storedDecimal(input.amount, "quote.amount", "positive"),
    currency: input.currency,
    exchangeRate: storedDecimal(input.exchangeRate, "quote.exchange_rate", "positive"),
    amountUsd: storedDecimal(input.amountUsd, "quote.amount_usd", "positive"),
    percentageFee: storedDecimal(input.percentageFee || "0", "quote.percentage_fee", "non-negative"),
    fixedFee: storedDecimal(input.fixedFee || "0", "quote.fixed_fee", "non-negative"),
    expiresAt: input.expiresAt,
  };
  crossCheck(input.fee, payoutFee(terms), "quote.fee");
  crossCheck(input.totalUsd, payoutTotal(terms), "quote.total_usd");
  return terms;
}

export function isQuoteExpired(terms: Pick<QuoteTerms, "expiresAt">, now: Date): boolean {
  return terms.expiresAt.getTime() <= now.getTime();
}

/** A decimal string that NUMERIC(38,18) stores exactly. */
export function storedDecimal(text: string, field: string, sign: "positive" | "non-negative"): Dec {
  const value = typeof text === "string" && text !== "" ? parseDecimal(text) : undefined;
  if (value === undefined) throw invalidField(field, "must be a plain decimal number");
  if (value.decimalPlaces() > INTERNAL_SCALE) {
    throw invalidField(field, `must have at most ${INTERNAL_SCALE} decimal places`);
  }
  if (value.abs().trunc().toFixed().length > MAX_INTEGER_DIGITS) throw invalidField(field, "is too large");
  if (sign === "positive" ? !value.gt(0) : value.isNeg()) {
    throw new LedgerFailure(
      "INVALID_AMOUNT",
      `${field} must be ${sign === "positive" ? "greater than 0" : "at least 0"}`,
      field,
    );
  }
  return value;
}

function crossCheck(given: string, expected: Dec, field: string): void {
  if (given === "") return;
  const value = parseDecimal(given);
  if (value === undefined || !value.eq(expected)) {
    throw invalidField(field, `must equal the sum of its parts (${expected.toFixed()})`);
  }
}
