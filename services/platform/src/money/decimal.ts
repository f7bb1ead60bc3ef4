/**
 * The decimal type every money path uses: never JS floating point.
 *
 * `Dec` is a private clone of decimal.js so that no other library's global `Decimal.set` can change our
 * precision or rounding. 40 significant digits leave room for a 20-digit integer part plus the 18
 * decimals of INTERNAL_SCALE, so quotients such as `amount / rate_per_usd` are exact to the stored scale.
 * Rounding is half-up (half away from zero), the rule partners expect on a statement.
 */
import { Decimal } from "decimal.js";

export const Dec = Decimal.clone({
  precision: 40,
  rounding: Decimal.ROUND_HALF_UP,
  // Plain notation from toString() for everything a payout can plausibly hold.
  toExpNeg: -40,
  toExpPos: 40,
});
export type Dec = Decimal;

/**
 * Decimal places of every stored USD amount, fee and rate. At least 12 are needed; 18 keeps a
 * sub-cent fee on a sub-cent amount visible and still fits PostgreSQL NUMERIC(38,18) up to 10^20.
 */
export const INTERNAL_SCALE = 18;

/**
 * Longest decimal string accepted. A 20-digit integer part with 18 decimals is 39 characters; the cap keeps a
 * hostile megabyte of digits from reaching the arithmetic.
 */
export const MAX_DECIMAL_STRING_LENGTH = 64;

// Plain decimal notation only: no sign other than "-", no exponent, no leading or trailing dot, no spaces.
// Exponents are refused in strings because "1e999999999" is a few bytes that expand into a huge number.
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Reads a money value from JSON: a finite JSON number, or a string in plain decimal notation ("12.50",
 * "-3", "0.000001"). Anything else (NaN, Infinity, "", " 1", "1e5", "0x10", "1,5", booleans, objects)
 * gives undefined. Negative values are returned; range checks belong to the caller.
 */
export function parseDecimal(input: unknown): Dec | undefined {
  if (typeof input === "number") {
    // A JSON number is already bounded by the double range, so its exponent form is harmless here.
    return Number.isFinite(input) ? new Dec(input === 0 ? 0 : input) : undefined;
  }
  if (typeof input !== "string" || input.length > MAX_DECIMAL_STRING_LENGTH || !PLAIN_DECIMAL.test(input)) {
    return undefined;
  }
  const value = new Dec(input);
  return value.isZero() ? new Dec(0) : value;
}

/**
 * The canonical text of a decimal for the wire between services and for the database: plain notation,
 * no exponent, trailing zeros trimmed, "0" rather than "-0".
 */
export function toDecimalString(value: Dec): string {
  if (!value.isFinite()) {
    throw new RangeError(`not a finite decimal: ${value.toString()}`);
  }
  return value.isZero() ? "0" : value.toFixed();
}

/** Quantizes a value to INTERNAL_SCALE decimals (half-up): the precision at which money is stored. */
export function toInternalScale(value: Dec): Dec {
  return value.toDecimalPlaces(INTERNAL_SCALE, Dec.ROUND_HALF_UP);
}
