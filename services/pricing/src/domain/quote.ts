/**
 * The price of paying out one local amount: its USD equivalent and the partner's fees on it.
 *
 * `amount_usd = amount / rate_per_usd` is the only inexact step; it is computed at 40 significant digits
 * and stored at INTERNAL_SCALE decimals. Everything is rounded to the partner's `dp` only when rendered.
 */
import { type Dec, toInternalScale } from "@payouts/platform/money/decimal";
import type { PayoutPrice } from "@payouts/platform/money/payout-price";
import { applyFees, type FeeSchedule } from "./fees.js";

export interface LocalAmountToPrice {
  /** Local amount in `currency`. */
  readonly amount: Dec;
  readonly currency: string;
  /** Units of `currency` per 1 USD; greater than 0. */
  readonly ratePerUsd: Dec;
  readonly fees: FeeSchedule;
}

export interface PricedAmount extends PayoutPrice {
  readonly fee: Dec;
  readonly totalUsd: Dec;
}

export function priceLocalAmount({ amount, currency, ratePerUsd, fees }: LocalAmountToPrice): PricedAmount {
  if (!ratePerUsd.isFinite() || !ratePerUsd.gt(0)) {
    // Rates are validated when stored (parseRatePerUsd), so a bad one here is a wiring bug, not input.
    throw new RangeError(`rate_per_usd must be greater than 0 for ${currency}: ${ratePerUsd.toString()}`);
  }
  const amountUsd = toInternalScale(amount.div(ratePerUsd));
  return { amount, currency, exchangeRate: ratePerUsd, ...applyFees(amountUsd, fees) };
}
