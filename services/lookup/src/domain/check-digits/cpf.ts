import { type CheckDigitOutcome, invalid, VALID } from "./check-digit-outcome.js";

/** Brazilian CPF: 9 digits + 2 mod-11 check digits (Receita Federal). */

function mod11Digit(digits: string, firstWeight: number): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (firstWeight - i);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two check digits of a 9-digit CPF base, as a 2-character string. */
export function cpfCheckDigits(base: string): string {
  const d1 = mod11Digit(base, 10);
  const d2 = mod11Digit(base + String(d1), 11);
  return `${d1}${d2}`;
}

export function checkCpf(value: string): CheckDigitOutcome {
  if (!/^\d{11}$/.test(value)) return invalid("a CPF has 11 digits");
  // Repeated-digit values pass the checksum but are never issued.
  if (/^(\d)\1{10}$/.test(value)) return invalid("a CPF cannot repeat one digit 11 times");
  const expected = cpfCheckDigits(value.slice(0, 9));
  if (value.slice(9) !== expected) return invalid(`check digits should be ${expected}`);
  return VALID;
}
