/**
 * A binding quote: the price of paying out one amount in one corridor (`getQuotation`).
 *
 * The amount is in the corridor currency unless `currency` names another one (USD, say); then it is
 * converted to the corridor currency first, because limits and the payout itself are in local currency.
 * The converted local amount is kept at INTERNAL_SCALE, not rounded to the currency's minor units: every
 * stored figure stays at full precision and only rendering rounds (to the partner's `dp`).
 */
import { fitsMinorUnits, tooPreciseMessage } from "@payouts/platform/money/currencies";
import { type Dec, INTERNAL_SCALE, parseDecimal, toInternalScale } from "@payouts/platform/money/decimal";
import { type Corridor, checkCorridorLimits } from "./corridor.js";
import type { FeeSchedule } from "./fees.js";
import { isPriceableCurrency, ratePerUsd } from "./fx-rates.js";
import type { Quotation } from "./preview.js";
import { fail, ok, type Result } from "./pricing-error.js";
import { priceLocalAmount } from "./quote.js";

/** Default lifetime of a binding quote; the service reads QUOTE_TTL_MS to change it. */
export const DEFAULT_QUOTE_TTL_MS = 30 * 60 * 1000;

export interface BindingQuoteRequest {
  /** As received: a decimal string. */
  readonly amount: string;
  /** ISO 4217 code of `amount`, any case; empty means the corridor currency. */
  readonly currency: string;
  readonly countryCode: string;
  /** The corridor of `countryCode`, undefined when none is configured. */
  readonly corridor: Corridor | undefined;
  readonly rates: ReadonlyMap<string, Dec>;
  readonly fees: FeeSchedule;
  readonly now: Date;
  readonly ttlMs: number;
}

/**
 * Checks, in order: INVALID_AMOUNT (not a decimal greater than 0), UNSUPPORTED_COUNTRY (no corridor or a
 * disabled one), INVALID_CURRENCY (not a priceable ISO code), INVALID_AMOUNT (more decimals than that
 * currency's minor units), INVALID_CURRENCY (no rate for it or for the corridor currency),
 * AMOUNT_OUT_OF_RANGE (local amount outside the corridor's inclusive limits).
 */
export function quoteCorridorPayout(request: BindingQuoteRequest): Result<Quotation> {
  const amount = parseDecimal(request.amount);
  if (amount === undefined || !amount.gt(0) || amount.dp() > INTERNAL_SCALE) {
    return fail("INVALID_AMOUNT", "amount must be a decimal greater than 0", "amount");
  }
  const { corridor } = request;
  if (corridor === undefined || !corridor.enabled) {
    return fail("UNSUPPORTED_COUNTRY", `payouts to ${request.countryCode} are not offered`, "country_code");
  }
  const local = localAmount(amount, request, corridor);
  if (!local.ok) {
    return local;
  }
  const limits = checkCorridorLimits(local.value.amount, corridor);
  if (!limits.ok) {
    const range = `${limits.min.toFixed()} to ${limits.max.toFixed()} ${corridor.currency}`;
    return fail("AMOUNT_OUT_OF_RANGE", `amount must be from ${range}`, "amount");
  }
  const priced = priceLocalAmount({
    amount: local.value.amount,
    currency: corridor.currency,
    ratePerUsd: local.value.rate,
    fees: request.fees,
  });
  return ok({ ...priced, expiresAt: new Date(request.now.getTime() + request.ttlMs) });
}

function localAmount(
  amount: Dec,
  request: BindingQuoteRequest,
  corridor: Corridor,
): Result<{ amount: Dec; rate: Dec }> {
  const source = request.currency === "" ? corridor.currency : request.currency.toUpperCase();
  if (!isPriceableCurrency(source)) {
    return fail("INVALID_CURRENCY", "currency must be an ISO 4217 currency code", "currency");
  }
  if (!fitsMinorUnits(amount, source)) {
    return fail("INVALID_AMOUNT", tooPreciseMessage("amount", source), "amount");
  }
  const targetRate = ratePerUsd(corridor.currency, request.rates);
  if (targetRate === undefined) {
    return fail("INVALID_CURRENCY", `no exchange rate is available for ${corridor.currency}`, "currency");
  }
  if (source === corridor.currency) {
    return ok({ amount, rate: targetRate });
  }
  const sourceRate = ratePerUsd(source, request.rates);
  if (sourceRate === undefined) {
    return fail("INVALID_CURRENCY", `no exchange rate is available for ${source}`, "currency");
  }
  return ok({ amount: toInternalScale(amount.times(targetRate).div(sourceRate)), rate: targetRate });
}
