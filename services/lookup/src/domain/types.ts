/**
 * Shapes shared by the lookup domain: validators, QR decoding and the request contracts.
 * Plain data only; the handlers map these to and from proto.
 */

import type {
  DomainError as SharedDomainError,
  Result as SharedResult,
} from "@payouts/platform/domain-result";
import { defineReasons } from "@payouts/platform/reasons/define-reasons";

export { ok } from "@payouts/platform/domain-result";

/**
 * Every reason the lookup service answers with: all are about the request itself (InvalidArgument), and
 * CUSTOMER_NOT_FOUND is NotFound only where the customer is the resource asked for (the handler says so).
 */
export const LOOKUP = defineReasons({
  INVALID_FIELD: {},
  MISSING_REQUIRED_FIELD: {
    template: (field: string) => ({ message: `${field} is required`, field }),
  },
  INVALID_AMOUNT: {},
  UNSUPPORTED_COUNTRY: {},
  INVALID_PAYMENT_METHOD: {},
  INVALID_DESTINATION_CODE: {},
  INVALID_DESTINATION: {},
  UNKNOWN_DESTINATION: {},
  SENDER_NOT_ACCEPTED: {},
  CUSTOMER_NOT_FOUND: {
    template: (customerId: string) => ({
      message: `No customer ${customerId}: register the sender with POST /customers first`,
      field: "customer_id",
    }),
  },
  USE_DECODE_QR: {},
  INVALID_QR: {},
});

export const LOOKUP_REASONS = LOOKUP.codes;

export type LookupReason = (typeof LOOKUP_REASONS)[number];

export type DomainError = SharedDomainError<LookupReason>;

export type Result<T, E = DomainError> = SharedResult<T, E>;

export const fail = LOOKUP.fail;

/**
 * Something the partner should know that does not block the payout, e.g. a Ghana mobile-money number
 * whose prefix belongs to another network (numbers are portable, so this is a hint, not an error).
 */
export interface DomainWarning {
  readonly code: string;
  readonly message: string;
  readonly field?: string;
}

export type PaymentMethod = "payment_key" | "ewallet" | "bank_transfer";
export type PaymentType = "till" | "paybill";

export interface MerchantInfo {
  merchant_id: string;
  display_name: string;
  country_code: string;
  payment_type: PaymentType;
  lipa_number?: string;
  account_reference?: string;
}

/** Free-form recipient map: account_no, bank_no, bank_code, bank_name, name, name_first, name_last, country. */
export type Recipient = Record<string, string>;

/**
 * A destination that passed validation (format and check digits). Holder names come later from
 * name enquiry; QR decoding may already carry a merchant name and an amount.
 */
export interface ValidatedDestination {
  country_code: string;
  /** ISO 4217 corridor currency. */
  currency: string;
  payment_method: PaymentMethod;
  /** e.g. CBU, CVU, ALIAS, PIX_CPF, PIX_CNPJ, PIX_PHONE, PIX_EMAIL, PIX_EVP, PE_MOBILE, BREB_ID, BREB_MOBILE,
   * BREB_EMAIL, BREB_ALIAS, BO_ACCOUNT, NUBAN, NG_WALLET, GH_BANK_ACCOUNT, GH_MOMO, ZM_BANK_ACCOUNT, TILL, PAYBILL,
   * VN_ACCOUNT, EMV_QR. */
  destination_type: string;
  /** Canonical form of the destination (e.g. lower-cased e-mail, +55 phone, digits only). */
  payment_destination: string;
  /** Rail or institution code in canonical form (PIX, BREB, YAPE, PLIN, bank code, network code, BIN). */
  payment_destination_code: string;
  institution_name: string;
  is_dynamic: boolean;
  is_business: boolean;
  merchant: string;
  merchant_id: string;
  merchant_name: string;
  payment_type?: PaymentType;
  merchant_info?: MerchantInfo;
  recipient: Recipient;
  /** Local amount carried by the destination itself (QR codes); "" when none. Decimal string. */
  amount: string;
  account_type?: "SAVINGS" | "CHECKING";
  account_reference?: string;
  /** Non-blocking remarks on the destination (see DomainWarning). */
  warnings?: DomainWarning[];
  /** Values the partner may want to use instead of what was sent (`suggested_values`). */
  suggested_values?: Record<string, string>;
}
