import { type CheckDigitOutcome, invalid, VALID } from "./check-digit-outcome.js";

/**
 * Brazilian CNPJ, numeric and the alphanumeric form allowed from July 2026 (IN RFB 2.229/2024): 12
 * positions of [0-9A-Z] and 2 numeric mod-11 check digits. Each character counts as its char code − 48,
 * so digits keep their value and A = 17 … Z = 42; the same rule therefore serves both formats.
 */

const DV1_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const DV2_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

function mod11Digit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (chars.charCodeAt(i) - 48) * (weights[i] ?? 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two check digits of a 12-character CNPJ base (upper case), as a 2-character string. */
export function cnpjCheckDigits(base: string): string {
  const dv1 = mod11Digit(base, DV1_WEIGHTS);
  const dv2 = mod11Digit(base + String(dv1), DV2_WEIGHTS);
  return `${dv1}${dv2}`;
}

export function checkCnpj(value: string): CheckDigitOutcome {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value)) {
    return invalid("a CNPJ has 12 characters 0-9/A-Z followed by 2 numeric check digits");
  }
  // Same-character values pass the checksum but are never issued.
  if (/^(.)\1{13}$/.test(value)) return invalid("a CNPJ cannot repeat one character 14 times");
  const expected = cnpjCheckDigits(value.slice(0, 12));
  if (value.slice(12) !== expected) return invalid(`check digits should be ${expected}`);
  return VALID;
}
