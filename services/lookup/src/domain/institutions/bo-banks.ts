import type { Bank } from "./bank.js";

/** Account-number length (digits) accepted for a Bolivian bank. */
export interface DigitRange {
  readonly min: number;
  readonly max: number;
}

export interface BoBank extends Bank {
  readonly accountDigits: DigitRange;
}

/** Banks whose own length is unknown: Airwallex caps BO accounts at 15 digits; EBANX's floor is 6. */
export const BO_DEFAULT_ACCOUNT_DIGITS: DigitRange = { min: 6, max: 15 };

/**
 * Bolivian banks with a confirmed identifier. Numeric codes are the ACH codes used by Airwallex (1, 2, 6);
 * BISA and BCP are listed under their SWIFT BIC because their ACH code could not be confirmed. Other
 * banks (Ganadero, Económico, FIE, BancoSol, Fortaleza, Prodem, ProCredit) wait for a confirmed code.
 */
export const BO_BANKS: readonly BoBank[] = [
  { code: "1", name: "Banco Mercantil Santa Cruz", type: "bank", accountDigits: { min: 10, max: 10 } },
  { code: "2", name: "Banco Nacional de Bolivia", type: "bank", accountDigits: { min: 10, max: 10 } },
  { code: "6", name: "Banco Unión", type: "bank", accountDigits: { min: 14, max: 14 } },
  { code: "BANIBOLX", name: "Banco BISA", type: "bank", accountDigits: BO_DEFAULT_ACCOUNT_DIGITS },
  {
    code: "BCPLBOLX",
    name: "Banco de Crédito de Bolivia",
    type: "bank",
    accountDigits: BO_DEFAULT_ACCOUNT_DIGITS,
  },
];

/** Finds a bank by code, case-insensitively; numeric codes also match with leading zeros ("01" = "1"). */
export function findBoBank(code: string): BoBank | undefined {
  const canonical = /^\d+$/.test(code) ? String(Number(code)) : code.toUpperCase();
  return BO_BANKS.find((bank) => bank.code === canonical);
}
