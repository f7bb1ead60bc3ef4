import type { Bank } from "./bank.js";

/**
 * Ghana. Banks are identified by the 2-digit bank part of their GhIPSS sort code; mobile-money wallets
 * by network. Network prefixes are only a hint: numbers are portable between networks since 2011.
 */

export const GH_BANKS: readonly Bank[] = [
  { code: "02", name: "Standard Chartered Bank Ghana", type: "bank" },
  { code: "03", name: "Absa Bank Ghana", type: "bank" },
  { code: "04", name: "GCB Bank", type: "bank" },
  { code: "05", name: "National Investment Bank", type: "bank" },
  { code: "06", name: "United Bank for Africa Ghana", type: "bank" },
  { code: "08", name: "Agricultural Development Bank", type: "bank" },
  { code: "09", name: "Societe Generale Ghana", type: "bank" },
  { code: "10", name: "Universal Merchant Bank", type: "bank" },
  { code: "11", name: "Republic Bank Ghana", type: "bank" },
  { code: "12", name: "Zenith Bank Ghana", type: "bank" },
  { code: "13", name: "Ecobank Ghana", type: "bank" },
  { code: "14", name: "CalBank", type: "bank" },
  { code: "17", name: "First Atlantic Bank", type: "bank" },
  { code: "18", name: "Prudential Bank", type: "bank" },
  { code: "19", name: "Stanbic Bank Ghana", type: "bank" },
  { code: "21", name: "Bank of Africa Ghana", type: "bank" },
  { code: "23", name: "Guaranty Trust Bank Ghana", type: "bank" },
  { code: "24", name: "Fidelity Bank Ghana", type: "bank" },
  { code: "28", name: "Access Bank Ghana", type: "bank" },
  { code: "33", name: "First National Bank Ghana", type: "bank" },
  { code: "34", name: "Consolidated Bank Ghana", type: "bank" },
  { code: "36", name: "OmniBSIC Bank", type: "bank" },
  { code: "39", name: "GHL Bank", type: "bank" },
];

export interface GhMomoNetwork extends Bank {
  /** National 3-digit prefixes (with the trunk 0) first assigned to the network. */
  readonly prefixes: readonly string[];
  /** Other names payout APIs use for the network. */
  readonly aliases: readonly string[];
}

export const GH_MOMO_NETWORKS: readonly GhMomoNetwork[] = [
  {
    code: "MTN",
    name: "MTN Mobile Money",
    type: "mobile_money",
    prefixes: ["024", "025", "053", "054", "055", "059"],
    aliases: [],
  },
  {
    code: "TELECEL",
    name: "Telecel Cash (ex-Vodafone Cash)",
    type: "mobile_money",
    prefixes: ["020", "050"],
    aliases: ["VODAFONE"],
  },
  {
    code: "AIRTELTIGO",
    name: "AirtelTigo Money",
    type: "mobile_money",
    prefixes: ["026", "027", "056", "057"],
    aliases: ["AIRTEL", "TIGO"],
  },
];

export const findGhBank = (code: string): Bank | undefined => GH_BANKS.find((bank) => bank.code === code);

/** Finds a network by code or alias, case-insensitively ("vodafone" → TELECEL). */
export function findGhMomoNetwork(code: string): GhMomoNetwork | undefined {
  const upper = code.toUpperCase();
  return GH_MOMO_NETWORKS.find((network) => network.code === upper || network.aliases.includes(upper));
}

/** The network a national number (0XXXXXXXXX) was first assigned to, from its prefix. */
export const ghNetworkByPrefix = (national: string): GhMomoNetwork | undefined =>
  GH_MOMO_NETWORKS.find((network) => network.prefixes.includes(national.slice(0, 3)));
