import type { PaymentMethod } from "./types.js";

/**
 * The payout corridors: one row per destination country, the single place that says which request
 * contract a country takes, its currency, its payment method and how payment_destination_code is used.
 */

export type CorridorCountry =
  | "AR"
  | "BR"
  | "PE"
  | "BO"
  | "CO"
  | "NG"
  | "GH"
  | "ZM"
  | "KE"
  | "TZ"
  | "UG"
  | "VN";

/**
 * `manual`: typed destination in payment_destination (+ payment_method, payment_destination_code).
 * `merchant`: till / paybill (KE, TZ) or bank account (VN) in merchant_id.
 */
export type Contract = "manual" | "merchant";

export type DestinationCodeRule =
  /** Not used; ignored when sent (AR keys carry their own routing; VN's BIN goes in account_reference). */
  | { readonly kind: "none" }
  /** One of a few rail or wallet codes. */
  | { readonly kind: "fixed"; readonly required: boolean; readonly codes: readonly string[] }
  /** A bank or network code from GET /listBanks, checked by the country's validator. Always required. */
  | { readonly kind: "institution" };

export interface Corridor {
  readonly country_code: CorridorCountry;
  /** ISO 4217 alphabetic code of the payout currency. */
  readonly currency: string;
  /** ISO 4217 minor units; amounts in this currency are rendered with this many decimals. */
  readonly minor_units: number;
  /** Contracts accepted; when there are two, merchant_id selects the merchant one. */
  readonly contracts: readonly Contract[];
  readonly payment_method: PaymentMethod;
  readonly destination_code: DestinationCodeRule;
  /** True when destinations belong to an institution (bank, network, BIN) named in the recipient map. */
  readonly institution_addressed: boolean;
}

const TILL_OR_PAYBILL: DestinationCodeRule = { kind: "fixed", required: false, codes: ["TILL", "PAYBILL"] };
const INSTITUTION: DestinationCodeRule = { kind: "institution" };

export const CORRIDORS: readonly Corridor[] = [
  corridor("AR", "ARS", ["manual"], "payment_key", { kind: "none" }),
  corridor("BR", "BRL", ["manual"], "payment_key", { kind: "fixed", required: true, codes: ["PIX"] }),
  corridor("PE", "PEN", ["manual"], "ewallet", { kind: "fixed", required: true, codes: ["YAPE", "PLIN"] }),
  corridor("BO", "BOB", ["manual"], "bank_transfer", INSTITUTION),
  corridor("CO", "COP", ["manual"], "payment_key", { kind: "fixed", required: true, codes: ["BREB"] }),
  corridor("NG", "NGN", ["manual"], "bank_transfer", INSTITUTION),
  corridor("GH", "GHS", ["manual"], "bank_transfer", INSTITUTION),
  corridor("ZM", "ZMW", ["manual"], "bank_transfer", INSTITUTION),
  corridor("KE", "KES", ["manual", "merchant"], "payment_key", TILL_OR_PAYBILL),
  corridor("TZ", "TZS", ["manual", "merchant"], "payment_key", TILL_OR_PAYBILL),
  corridor("UG", "UGX", ["manual"], "payment_key", TILL_OR_PAYBILL, 0),
  // The partner API gives VN no payment_method; a bank account payout is a bank transfer.
  {
    ...corridor("VN", "VND", ["merchant"], "bank_transfer", { kind: "none" }, 0),
    institution_addressed: true,
  },
];

function corridor(
  country_code: CorridorCountry,
  currency: string,
  contracts: readonly Contract[],
  payment_method: PaymentMethod,
  destination_code: DestinationCodeRule,
  minor_units = 2,
): Corridor {
  const institution_addressed = destination_code.kind === "institution";
  return {
    country_code,
    currency,
    minor_units,
    contracts,
    payment_method,
    destination_code,
    institution_addressed,
  };
}

/** The corridor of an ISO alpha-2 code, case-insensitively; undefined when the country is not served. */
export const findCorridor = (countryCode: string): Corridor | undefined =>
  CORRIDORS.find((row) => row.country_code === countryCode.toUpperCase());
