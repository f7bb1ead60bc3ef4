import { type CheckDigitOutcome, invalid, VALID } from "./check-digit-outcome.js";

/**
 * Nigerian NUBAN (CBN 2010, revised 2020): 10-digit account = 9-digit serial + check digit computed over
 * the 6-digit institution code and the serial. Deposit-money banks' 3-digit CBN codes become 6 digits
 * with "000" in front (so the 2010 and 2020 algorithms agree for them); other financial institutions'
 * 5-digit CBN codes take a leading "9".
 */

const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3] as const;

/** The 6-digit NUBAN institution code for a 3-digit (bank) or 5-digit (other institution) CBN code. */
export function nubanInstitutionCode(cbnCode: string): string {
  if (/^\d{3}$/.test(cbnCode)) return `000${cbnCode}`;
  if (/^\d{5}$/.test(cbnCode)) return `9${cbnCode}`;
  throw new RangeError(`not a 3- or 5-digit CBN institution code: ${cbnCode}`);
}

export function nubanCheckDigit(institutionCode: string, serial: string): number {
  const digits = institutionCode + serial;
  let sum = 0;
  for (let i = 0; i < WEIGHTS.length; i++) sum += Number(digits[i]) * (WEIGHTS[i] ?? 0);
  return (10 - (sum % 10)) % 10;
}

/** Checks a 10-digit account against the institution's 3- or 5-digit CBN code. */
export function checkNuban(cbnCode: string, account: string): CheckDigitOutcome {
  if (!/^\d{10}$/.test(account)) return invalid("a NUBAN account number has 10 digits");
  const expected = nubanCheckDigit(nubanInstitutionCode(cbnCode), account.slice(0, 9));
  if (Number(account[9]) !== expected)
    return invalid(`check digit (last digit) should be ${expected} for this bank`);
  return VALID;
}
