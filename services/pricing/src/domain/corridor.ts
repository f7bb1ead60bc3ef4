/**
 * A payout corridor: one destination country, its currency and the local-amount limits of one payout
 * (`PUT /admin/corridors/{country_code}`). Limits are inclusive.
 */

import { fitsMinorUnits, tooPreciseMessage } from "@payouts/platform/money/currencies";
import { type Dec, parseDecimal } from "@payouts/platform/money/decimal";
import { isPriceableCurrency } from "./fx-rates.js";
import { fail, ok, type Result } from "./pricing-error.js";
import { fitsStoredScale } from "./stored-decimal.js";

export interface Corridor {
  /** ISO 3166 alpha-2. */
  readonly countryCode: string;
  /** ISO 4217 currency paid out in this corridor. */
  readonly currency: string;
  /** Smallest local amount of one payout, inclusive. */
  readonly minAmount: Dec;
  /** Largest local amount of one payout, inclusive. */
  readonly maxAmount: Dec;
  readonly enabled: boolean;
}

export type LimitCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: "AMOUNT_OUT_OF_RANGE"; readonly min: Dec; readonly max: Dec };

export function checkCorridorLimits(
  amountLocal: Dec,
  corridor: Pick<Corridor, "minAmount" | "maxAmount">,
): LimitCheck {
  if (amountLocal.gte(corridor.minAmount) && amountLocal.lte(corridor.maxAmount)) {
    return { ok: true };
  }
  return { ok: false, code: "AMOUNT_OUT_OF_RANGE", min: corridor.minAmount, max: corridor.maxAmount };
}

/** An admin corridor as sent; refusals name the wire fields (`country_code`, `min_amount`, …). */
export interface CorridorInput {
  readonly countryCode: unknown;
  readonly currency: unknown;
  readonly minAmount: unknown;
  readonly maxAmount: unknown;
  readonly enabled: unknown;
}

/**
 * Validates an admin corridor: alpha-2 country, ISO currency with minor units, 0 <= min <= max, limits in
 * whole minor units of the currency (else INVALID_AMOUNT), boolean enabled.
 */
export function parseCorridor(input: CorridorInput): Result<Corridor> {
  const { countryCode, currency, enabled } = input;
  if (typeof countryCode !== "string" || !/^[A-Z]{2}$/.test(countryCode)) {
    return fail("INVALID_FIELD", "country_code must be an ISO 3166 alpha-2 code", "country_code");
  }
  if (typeof currency !== "string" || !isPriceableCurrency(currency)) {
    return fail("INVALID_FIELD", "currency must be an upper-case ISO 4217 code with minor units", "currency");
  }
  const minAmount = parseLimit(input.minAmount);
  if (minAmount === undefined) {
    return fail("INVALID_FIELD", "min_amount must be a decimal of at least 0", "min_amount");
  }
  const maxAmount = parseLimit(input.maxAmount);
  if (maxAmount === undefined || maxAmount.lt(minAmount)) {
    return fail("INVALID_FIELD", "max_amount must be a decimal not below min_amount", "max_amount");
  }
  for (const [field, limit] of [
    ["min_amount", minAmount],
    ["max_amount", maxAmount],
  ] as const) {
    if (!fitsMinorUnits(limit, currency))
      return fail("INVALID_AMOUNT", tooPreciseMessage(field, currency), field);
  }
  if (typeof enabled !== "boolean") {
    return fail("INVALID_FIELD", "enabled must be true or false", "enabled");
  }
  return ok({ countryCode, currency, minAmount, maxAmount, enabled });
}

function parseLimit(input: unknown): Dec | undefined {
  const value = parseDecimal(input);
  return value === undefined || value.isNegative() || !fitsStoredScale(value) ? undefined : value;
}

/**
 * The limits previews apply per target currency. Several corridors may pay out in one currency (USD in
 * several countries, say); a preview names a currency, not a country, so it accepts an amount that at
 * least one enabled corridor of that currency could pay: the enabled corridors' limits are widened to
 * their lowest minimum and highest maximum. A currency whose corridors are all disabled maps to a
 * disabled corridor, which previews skip.
 */
export function limitsByCurrency(corridors: readonly Corridor[]): Map<string, Corridor> {
  const byCurrency = new Map<string, Corridor>();
  for (const corridor of corridors) {
    const seen = byCurrency.get(corridor.currency);
    byCurrency.set(corridor.currency, seen === undefined ? corridor : widen(seen, corridor));
  }
  return byCurrency;
}

function widen(a: Corridor, b: Corridor): Corridor {
  if (a.enabled !== b.enabled) {
    return a.enabled ? a : b;
  }
  return {
    ...a,
    minAmount: a.minAmount.lt(b.minAmount) ? a.minAmount : b.minAmount,
    maxAmount: a.maxAmount.gt(b.maxAmount) ? a.maxAmount : b.maxAmount,
  };
}
