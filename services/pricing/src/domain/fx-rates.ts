/**
 * FX rates are quoted as `rate_per_usd`: units of the currency per 1 USD. USD itself is
 * always 1 and needs no configured rate; a configured USD row is ignored so it can never skew prices.
 */
import { minorUnits } from "@payouts/platform/money/currencies";
import { Dec, parseDecimal } from "@payouts/platform/money/decimal";
import { fail, ok, type Result } from "./pricing-error.js";
import { fitsStoredScale } from "./stored-decimal.js";

export const USD = "USD";

const ONE = new Dec(1);

/** The rate of `currency` per USD, or undefined when none is configured (or a stored one is unusable). */
export function ratePerUsd(currency: string, rates: ReadonlyMap<string, Dec>): Dec | undefined {
  if (currency === USD) {
    return ONE;
  }
  const rate = rates.get(currency);
  return rate?.isFinite() && rate.gt(0) ? rate : undefined;
}

/** Validates an admin `rate_per_usd`: a decimal greater than 0 that fits the stored NUMERIC(38,18). */
export function parseRatePerUsd(input: unknown): Result<Dec> {
  const rate = parseDecimal(input);
  if (rate === undefined || !rate.gt(0) || !fitsStoredScale(rate)) {
    return fail("INVALID_FIELD", "rate_per_usd must be a decimal greater than 0", "rate_per_usd");
  }
  return ok(rate);
}

/**
 * True for an upper-case ISO 4217 code that has minor units. Codes whose minor unit ISO gives as N.A.
 * (gold, SDR, XXX, ...) can never be rendered as a local amount, so they may not be priced at all.
 */
export function isPriceableCurrency(code: string): boolean {
  return minorUnits(code) !== undefined;
}

/** Reads a currency code given by an operator or a partner, any case, into its upper-case ISO form. */
export function parsePriceableCurrency(input: unknown, field: string): Result<string> {
  const code = typeof input === "string" ? input.toUpperCase() : "";
  if (!isPriceableCurrency(code)) {
    return fail("INVALID_FIELD", `${field} must be an ISO 4217 currency code with minor units`, field);
  }
  return ok(code);
}
