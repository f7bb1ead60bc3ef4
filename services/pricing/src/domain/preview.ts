/**
 * `POST /previewQuotations`: the amount in one currency, priced in every currency the partner
 * supports. Stateless and indicative; binding prices come from a quote on a real transaction.
 *
 * Each target's local amount is `amount × rate_target / rate_source` at full precision (the source currency
 * itself keeps the partner's amount untouched), then priced like any local amount. It is not rounded to
 * the target's minor units first, so `amount_usd` is the same for every target; rendering rounds it.
 */
import { fitsMinorUnits, isIsoCurrency, tooPreciseMessage } from "@payouts/platform/money/currencies";
import { type Dec, parseDecimal } from "@payouts/platform/money/decimal";
import { type Corridor, checkCorridorLimits } from "./corridor.js";
import type { FeeSchedule } from "./fees.js";
import { ratePerUsd, USD } from "./fx-rates.js";
import { fail, ok, type Result } from "./pricing-error.js";
import { type PricedAmount, priceLocalAmount } from "./quote.js";

/** The partner API's `expires_at` is always 30 minutes after the response time. */
export const PREVIEW_TTL_MS = 30 * 60 * 1000;

export interface Quotation extends PricedAmount {
  readonly expiresAt: Date;
}

export interface PreviewRequest {
  readonly amount: Dec;
  /** Upper-case ISO 4217 code of `amount`. */
  readonly currency: string;
  /** rate_per_usd by currency; USD is implicitly 1. */
  readonly rates: ReadonlyMap<string, Dec>;
  /** The partner's supported_currencies, in the order quotations are returned; empty means only USD. */
  readonly supportedCurrencies: readonly string[];
  /** Limits per target currency; a currency without a corridor has no limits, a disabled one is skipped. */
  readonly corridorsByCurrency: ReadonlyMap<string, Corridor>;
  readonly fees: FeeSchedule;
  readonly now: Date;
}

/**
 * Fails with INVALID_CURRENCY when the source currency has no rate; otherwise one quotation per target that
 * has a rate, an enabled (or no) corridor, and a converted amount within that corridor's limits.
 */
export function previewQuotations(request: PreviewRequest): Result<Quotation[]> {
  const sourceRate = ratePerUsd(request.currency, request.rates);
  if (sourceRate === undefined) {
    return fail("INVALID_CURRENCY", `no exchange rate is available for ${request.currency}`, "currency");
  }
  const expiresAt = new Date(request.now.getTime() + PREVIEW_TTL_MS);
  const quotations: Quotation[] = [];
  for (const target of previewTargets(request.supportedCurrencies)) {
    const priced = priceTarget(request, sourceRate, target);
    if (priced !== undefined) {
      quotations.push({ ...priced, expiresAt });
    }
  }
  return ok(quotations);
}

function previewTargets(supportedCurrencies: readonly string[]): string[] {
  const targets = new Set(supportedCurrencies.map((currency) => currency.toUpperCase()));
  return targets.size === 0 ? [USD] : [...targets];
}

function priceTarget(request: PreviewRequest, sourceRate: Dec, target: string): PricedAmount | undefined {
  const targetRate = ratePerUsd(target, request.rates);
  if (targetRate === undefined) {
    return undefined;
  }
  const amount =
    target === request.currency ? request.amount : request.amount.times(targetRate).div(sourceRate);
  const corridor = request.corridorsByCurrency.get(target);
  if (corridor !== undefined && (!corridor.enabled || !checkCorridorLimits(amount, corridor).ok)) {
    return undefined;
  }
  return priceLocalAmount({ amount, currency: target, ratePerUsd: targetRate, fees: request.fees });
}

export interface PreviewBody {
  readonly amount: Dec;
  /** Upper-cased ISO 4217 code. */
  readonly currency: string;
}

/**
 * The body checks of the partner API's error table, in its order: INVALID_AMOUNT (amount missing, not a number or
 * not greater than 0), then MISSING_REQUIRED_FIELD (currency missing or not ISO 4217, any case), then
 * INVALID_AMOUNT again when the amount has more decimals than the currency's minor units (a check that
 * needs the currency, so it comes after it). Amounts are accepted as JSON numbers or
 * plain decimal strings. Authentication and rate limits, which the partner API
 * orders between these and INVALID_CURRENCY, are the gateway's.
 */
export function validatePreviewBody(body: unknown): Result<PreviewBody> {
  const fields = typeof body === "object" && body !== null && !Array.isArray(body) ? body : {};
  const { amount: rawAmount, currency: rawCurrency } = fields as { amount?: unknown; currency?: unknown };
  const amount = parseDecimal(rawAmount);
  if (amount === undefined || !amount.gt(0)) {
    return fail("INVALID_AMOUNT", "amount must be a number greater than 0", "amount");
  }
  if (typeof rawCurrency !== "string" || rawCurrency === "") {
    return fail("MISSING_REQUIRED_FIELD", "currency is required", "currency");
  }
  const currency = rawCurrency.toUpperCase();
  if (!isIsoCurrency(currency)) {
    return fail("MISSING_REQUIRED_FIELD", "currency must be an ISO 4217 currency code", "currency");
  }
  if (!fitsMinorUnits(amount, currency)) {
    return fail("INVALID_AMOUNT", tooPreciseMessage("amount", currency), "amount");
  }
  return ok({ amount, currency });
}
