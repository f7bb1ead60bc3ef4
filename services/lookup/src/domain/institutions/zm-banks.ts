import type { Bank } from "./bank.js";

/**
 * Zambian banks, identified by SWIFT BIC because numeric Zambian sort codes could not be established.
 * Absa, First National Bank, Indo Zambia, Citibank, Bank of China and First Alliance wait for a
 * confirmed BIC.
 */
export const ZM_BANKS: readonly Bank[] = [
  { code: "ZNCOZMLU", name: "Zambia National Commercial Bank (Zanaco)", type: "bank" },
  { code: "SBICZMLX", name: "Stanbic Bank Zambia", type: "bank" },
  { code: "SCBLZMLX", name: "Standard Chartered Bank Zambia", type: "bank" },
  { code: "UNAFZMLU", name: "United Bank for Africa Zambia", type: "bank" },
  { code: "AZAMZMLU", name: "Access Bank Zambia", type: "bank" },
  { code: "ABBAZMLU", name: "AB Bank Zambia", type: "bank" },
  { code: "NSCBZML1", name: "National Savings and Credit Bank", type: "bank" },
  { code: "ZAEIZML1", name: "Zambia Export and Import Bank", type: "bank" },
];

/** Atlas Mara (African Banking Corporation Zambia) merged into Access Bank Zambia in 2023. */
const LEGACY_CODES: Readonly<Record<string, string>> = { ATLASMARA: "AZAMZMLU", ATLAS_MARA: "AZAMZMLU" };

/** Mobile-money networks: named so that the refusal can say ZM is banks only. */
export const ZM_MOBILE_MONEY_NETWORKS: readonly string[] = ["MTN", "AIRTEL", "ZAMTEL"];

export interface ZmBankMatch {
  readonly bank: Bank;
  /** The legacy code the partner sent, when it was remapped. */
  readonly remappedFrom?: string;
}

/** Finds a bank by BIC (case-insensitive) or by a legacy code of a merged bank. */
export function findZmBank(code: string): ZmBankMatch | undefined {
  const upper = code.toUpperCase().replace(/\s+/g, "_");
  const bank = ZM_BANKS.find((candidate) => candidate.code === upper);
  if (bank !== undefined) return { bank };
  const successor = ZM_BANKS.find((candidate) => candidate.code === LEGACY_CODES[upper]);
  return successor === undefined ? undefined : { bank: successor, remappedFrom: upper };
}
