/**
 * Exact fixed-point USD amounts for the statement's running balance and totals: a decimal of at most
 * AMOUNT_SCALE fractional digits held as a bigint, its value times 10^AMOUNT_SCALE. Every amount, fee and
 * balance the ledger stores has that scale (numeric(38, 18), INTERNAL_SCALE), so sums of them are exact and
 * cost a bigint addition instead of a decimal.js object per step. Money stays decimal everywhere else: this
 * is read from and written back to the same decimal text (`toDecimalString`'s canonical form). Pure.
 */
import { Dec, INTERNAL_SCALE, toDecimalString } from "@payouts/platform/money/decimal";

export const AMOUNT_SCALE = INTERNAL_SCALE;
const ZEROS = "0".repeat(AMOUNT_SCALE);
const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const ZERO = 48; // "0"

/**
 * The scaled value of a plain decimal text ("-12.50", "0.000000000000000001", "7"), as PostgreSQL prints
 * numeric and `toDecimalString` writes it. RangeError for any other text, and for digits past
 * AMOUNT_SCALE that are not zeros (the value would not be exact).
 */
export function parseScaled(text: string): bigint {
  const m = PLAIN_DECIMAL.exec(text);
  if (!m) throw new RangeError(`not a plain decimal: ${text}`);
  const [, sign, int, frac = ""] = m;
  if (frac.length > AMOUNT_SCALE && !/^0*$/.test(frac.slice(AMOUNT_SCALE))) {
    throw new RangeError(`more than ${AMOUNT_SCALE} decimals: ${text}`);
  }
  const digits = BigInt(
    int + (frac.length >= AMOUNT_SCALE ? frac.slice(0, AMOUNT_SCALE) : frac + ZEROS.slice(frac.length)),
  );
  return sign ? -digits : digits;
}

/** The canonical decimal text of a scaled value: plain notation, no trailing zeros, "0" for zero. */
export function formatScaled(value: bigint): string {
  if (value === 0n) return "0";
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  // `digits` is the value times 10^AMOUNT_SCALE: its last AMOUNT_SCALE digits are the fraction (which may
  // run to the left of `digits`, as leading zeros).
  const cut = digits.length - AMOUNT_SCALE;
  let end = digits.length;
  while (end > 0 && end > cut && digits.charCodeAt(end - 1) === ZERO) end--;
  let text: string;
  if (cut <= 0) text = `0.${ZEROS.slice(0, -cut)}${digits.slice(0, end)}`;
  else if (end === cut) text = digits.slice(0, cut);
  else text = `${digits.slice(0, cut)}.${digits.slice(cut, end)}`;
  return negative ? `-${text}` : text;
}

/** The canonical text of a plain decimal of at most AMOUNT_SCALE decimals (as `toDecimalString` writes it). */
export function canonicalDecimal(text: string): string {
  return formatScaled(parseScaled(text));
}

export function scaledOf(value: Dec): bigint {
  return parseScaled(toDecimalString(value));
}

export function decOf(value: bigint): Dec {
  return new Dec(formatScaled(value));
}
