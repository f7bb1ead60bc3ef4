import type { Bank } from "./bank.js";

/**
 * A Nigerian institution. `code` is its 6-digit NIBSS NIP code (what transfers are routed with, and what
 * listBanks shows); `cbnCode` is the CBN code the NUBAN check digit is computed with (3 digits for
 * deposit-money banks, 5 for other institutions). Type `mobile_money` marks wallet institutions, whose
 * account numbers are usually the holder's phone number and carry no NUBAN check digit.
 */
export interface NgInstitution extends Bank {
  readonly cbnCode?: string;
}

export const NG_INSTITUTIONS: readonly NgInstitution[] = [
  { code: "000014", cbnCode: "044", name: "Access Bank", type: "bank" },
  { code: "000005", cbnCode: "063", name: "Access Bank (Diamond)", type: "bank" },
  { code: "000009", cbnCode: "023", name: "Citibank Nigeria", type: "bank" },
  { code: "000010", cbnCode: "050", name: "Ecobank Nigeria", type: "bank" },
  { code: "000007", cbnCode: "070", name: "Fidelity Bank", type: "bank" },
  { code: "000016", cbnCode: "011", name: "First Bank of Nigeria", type: "bank" },
  { code: "000003", cbnCode: "214", name: "First City Monument Bank (FCMB)", type: "bank" },
  { code: "000013", cbnCode: "058", name: "Guaranty Trust Bank", type: "bank" },
  { code: "000006", cbnCode: "301", name: "Jaiz Bank", type: "bank" },
  { code: "000002", cbnCode: "082", name: "Keystone Bank", type: "bank" },
  { code: "000008", cbnCode: "076", name: "Polaris Bank", type: "bank" },
  { code: "000012", cbnCode: "221", name: "Stanbic IBTC Bank", type: "bank" },
  { code: "000021", cbnCode: "068", name: "Standard Chartered Bank Nigeria", type: "bank" },
  { code: "000001", cbnCode: "232", name: "Sterling Bank", type: "bank" },
  { code: "000018", cbnCode: "032", name: "Union Bank of Nigeria", type: "bank" },
  { code: "000004", cbnCode: "033", name: "United Bank for Africa", type: "bank" },
  { code: "000011", cbnCode: "215", name: "Unity Bank", type: "bank" },
  { code: "000017", cbnCode: "035", name: "Wema Bank", type: "bank" },
  { code: "000015", cbnCode: "057", name: "Zenith Bank", type: "bank" },
  { code: "090267", cbnCode: "50211", name: "Kuda Microfinance Bank", type: "bank" },
  { code: "090405", cbnCode: "50515", name: "Moniepoint Microfinance Bank", type: "mobile_money" },
  { code: "100004", name: "OPay", type: "mobile_money" },
  { code: "100033", name: "PalmPay", type: "mobile_money" },
  { code: "100002", name: "Paga", type: "mobile_money" },
  { code: "120001", name: "9 Payment Service Bank (9PSB)", type: "mobile_money" },
];

/**
 * Finds an institution by its NIP code (6 digits) or its CBN code (3 digits for banks, 5 for others).
 * 6-digit NUBAN-style forms of bank codes ("000011") are not accepted: they collide with NIP codes
 * (000011 is Unity Bank's NIP code but would be First Bank's NUBAN code).
 */
export function findNgInstitution(code: string): NgInstitution | undefined {
  if (/^\d{6}$/.test(code)) return NG_INSTITUTIONS.find((institution) => institution.code === code);
  if (/^\d{3}$|^\d{5}$/.test(code))
    return NG_INSTITUTIONS.find((institution) => institution.cbnCode === code);
  return undefined;
}
