import { type CorridorCountry, findCorridor } from "./corridors.js";
import { MERCHANT_KINDS } from "./destinations/merchant-ke-tz-ug.js";
import { PE_WALLETS } from "./destinations/pe.js";
import type { Bank } from "./institutions/bank.js";
import { BO_BANKS } from "./institutions/bo-banks.js";
import { GH_BANKS, GH_MOMO_NETWORKS } from "./institutions/gh-institutions.js";
import { NG_INSTITUTIONS } from "./institutions/ng-institutions.js";
import { VN_BANKS } from "./institutions/vn-banks.js";
import { ZM_BANKS } from "./institutions/zm-banks.js";

export type { Bank } from "./institutions/bank.js";

/**
 * The codes behind `GET /listBanks?country_code=XX`: for every corridor, the values a partner may send
 * as payment_destination_code (or, for VN, as the BIN in account_reference).
 * - Institution corridors list their banks and mobile-money networks (NG: NIP codes, GH: 2-digit bank
 *   codes and network names, ZM and part of BO: SWIFT BICs, VN: NAPAS BINs).
 * - Rail corridors list their rail or wallets: BR PIX, CO BREB, PE YAPE / PLIN, KE/TZ/UG TILL / PAYBILL.
 * - AR lists nothing: CBUs, CVUs and aliases carry their own routing.
 */

const rail = (code: string, name: string, type: Bank["type"]): Bank => ({ code, name, type });

const MERCHANT_CODES: readonly Bank[] = Object.entries(MERCHANT_KINDS).map(([code, kind]) =>
  rail(code, kind.name, "mobile_money"),
);

const BANKS_BY_COUNTRY: Readonly<Record<CorridorCountry, readonly Bank[]>> = {
  AR: [],
  BR: [rail("PIX", "Pix", "bank")],
  CO: [rail("BREB", "Bre-B", "bank")],
  PE: Object.entries(PE_WALLETS).map(([code, name]) => rail(code, name, "mobile_money")),
  BO: BO_BANKS,
  NG: NG_INSTITUTIONS,
  GH: [...GH_BANKS, ...GH_MOMO_NETWORKS],
  ZM: ZM_BANKS,
  KE: MERCHANT_CODES,
  TZ: MERCHANT_CODES,
  UG: MERCHANT_CODES,
  VN: VN_BANKS,
};

/** Institutions of a country (code case-insensitive); undefined when the country is not a corridor. */
export function listBanks(countryCode: string): Bank[] | undefined {
  const corridor = findCorridor(countryCode);
  if (corridor === undefined) return undefined;
  // Fresh plain objects: the tables carry internal fields (CBN codes, prefixes, account lengths).
  return BANKS_BY_COUNTRY[corridor.country_code].map(({ code, name, type }) => ({ code, name, type }));
}
