import type { Recipient, ValidatedDestination } from "../types.js";
import type { EmvMerchantData } from "./emv-merchant-data.js";

export type QrScheme = "PIX" | "VIETQR" | "AR_INTEROPERABLE" | "KE_QR" | "TANQR";

/** A scanned QR that passed CRC, TLV and scheme checks. */
export interface DecodedQr {
  readonly scheme: QrScheme;
  /** Same shape as a typed destination, so lookup can answer and store it the same way. */
  readonly destination: ValidatedDestination;
  readonly details: QrDetails;
}

/** What the QR says beyond the destination; "" when a field is absent. */
export interface QrDetails {
  /** The payload as decoded (surrounding whitespace removed): QR rails need it verbatim. */
  readonly payload: string;
  readonly point_of_initiation: "static" | "dynamic";
  readonly merchant_category_code: string;
  readonly merchant_city: string;
  readonly postal_code: string;
  /** Globally unique identifier of the scheme's merchant account template (e.g. br.gov.bcb.pix). */
  readonly gui: string;
  /** 62-01 bill number. */
  readonly bill_number: string;
  /** 62-05 reference label (the Pix txid). */
  readonly reference_label: string;
  /** 62-08 purpose of transaction. */
  readonly purpose: string;
  readonly store_label: string;
  readonly terminal_label: string;
  /** Scheme-specific values (Pix key type, URL and description; VietQR service code; acquirer ids). */
  readonly scheme_data: Readonly<Record<string, string>>;
}

/** What a scheme decoder contributes; decode-qr adds the common details. */
export interface SchemeDecoding {
  readonly destination: ValidatedDestination;
  readonly gui: string;
  readonly schemeData: Readonly<Record<string, string>>;
}

type CommonDestinationFields = Pick<
  ValidatedDestination,
  | "country_code"
  | "currency"
  | "amount"
  | "is_dynamic"
  | "merchant"
  | "merchant_id"
  | "merchant_name"
  | "institution_name"
  | "recipient"
>;

/** Destination fields every scheme fills the same way from the common EMV fields. */
export function commonDestinationFields(common: EmvMerchantData): CommonDestinationFields {
  const recipient: Recipient = common.merchantName === "" ? {} : { name: common.merchantName };
  return {
    country_code: common.countryCode,
    currency: common.currency.alpha,
    amount: common.amount,
    is_dynamic: common.isDynamic,
    merchant: common.merchantName,
    merchant_id: "",
    merchant_name: "",
    institution_name: "",
    recipient,
  };
}
