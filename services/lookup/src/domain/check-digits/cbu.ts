import { type CheckDigitOutcome, invalid, VALID } from "./check-digit-outcome.js";

/**
 * Argentine CBU / CVU (BCRA): 22 digits in two blocks, each closed by a weighted mod-10 check digit.
 * CVUs (issued by payment service providers) share the algorithm and start with entity code 000.
 */

const BLOCK1_WEIGHTS = [7, 1, 3, 9, 7, 1, 3] as const;
const BLOCK2_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3] as const;

/**
 * Check digit over `digits` with the matching block weights. The outer `mod 10` matters: without it a
 * sum that is a multiple of 10 would give "10" and valid CBUs would be refused.
 */
export function cbuBlockCheckDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(digits[i]) * (weights[i] ?? 0);
  return (10 - (sum % 10)) % 10;
}

/** Both check digits for the 20 payload digits (block 1 positions 1–7, block 2 positions 9–21). */
export function cbuCheckDigits(value: string): { dv1: number; dv2: number } {
  return {
    dv1: cbuBlockCheckDigit(value.slice(0, 7), BLOCK1_WEIGHTS),
    dv2: cbuBlockCheckDigit(value.slice(8, 21), BLOCK2_WEIGHTS),
  };
}

export function checkCbu(value: string): CheckDigitOutcome {
  if (!/^\d+$/.test(value)) return invalid("a CBU/CVU has digits only");
  if (value.length !== 22) return invalid(`a CBU/CVU has 22 digits, got ${value.length}`);
  const { dv1, dv2 } = cbuCheckDigits(value);
  if (Number(value[7]) !== dv1) return invalid(`first check digit (position 8) should be ${dv1}`);
  if (Number(value[21]) !== dv2) return invalid(`second check digit (position 22) should be ${dv2}`);
  return VALID;
}

/** A CVU is told apart from a CBU by entity code 000, which no bank holds. */
export const isCvu = (value: string): boolean => value.startsWith("000");
