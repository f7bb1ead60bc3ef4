import { type CheckDigitOutcome, invalid, VALID } from "./check-digit-outcome.js";

/**
 * Colombian NIT (DIAN): a base number and one mod-11 check digit ("dígito de verificación"). Weights
 * apply from the rightmost digit of the base.
 */

const WEIGHTS_FROM_RIGHT = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71] as const;

export function nitCheckDigit(base: string): number {
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    sum += Number(base[base.length - 1 - i]) * (WEIGHTS_FROM_RIGHT[i] ?? 0);
  }
  const r = sum % 11;
  return r < 2 ? r : 11 - r;
}

/** Checks a NIT written as base digits followed by the check digit (no separator). */
export function checkNit(value: string): CheckDigitOutcome {
  if (!/^\d{2,16}$/.test(value)) return invalid("a NIT has digits only");
  const expected = nitCheckDigit(value.slice(0, -1));
  if (Number(value.slice(-1)) !== expected) return invalid(`NIT check digit should be ${expected}`);
  return VALID;
}
