/**
 * A destination as lookupPaymentCode's body gives it (`LookupPaymentCodeRequest`), as the lookup service's
 * ResolveDestination reads it. One mapping for every body that carries those fields: lookupPaymentCode and
 * each item of a bulk payout.
 */
import type { Recipient } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import type { LookupPaymentCodeRequest } from "../operations/partner/lookup-api.js";

/** The destination fields of a lookup body (the partner references and the amount are the caller's). */
export type DestinationFields = Pick<
  LookupPaymentCodeRequest,
  | "customer_id"
  | "country_code"
  | "payment_method"
  | "payment_destination"
  | "qr_string"
  | "payment_destination_code"
  | "account_type"
  | "merchant_id"
  | "account_reference"
  | "currency"
  | "recipient"
>;

export interface LookupInput {
  customerId: string;
  countryCode: string;
  paymentMethod: string;
  paymentDestination: string;
  paymentDestinationCode: string;
  accountType: string;
  merchantId: string;
  accountReference: string;
  currency: string;
  hasRecipient: boolean;
  recipient?: Partial<Pick<Recipient, "nameFirst" | "nameLast" | "icNumber">>;
}

export interface ReadDestination {
  readonly lookup: LookupInput;
  /** The body field that carried the typed destination: the legacy alias when only it was sent. */
  readonly destinationField: "payment_destination" | "qr_string";
}

export function lookupInputOf(body: DestinationFields): ReadDestination {
  const typed = body.payment_destination ?? "";
  const legacy = body.qr_string ?? "";
  // qr_string is the legacy alias of payment_destination; when both are sent, payment_destination wins.
  const destinationField = typed.trim() === "" && legacy.trim() !== "" ? "qr_string" : "payment_destination";
  const recipient = body.recipient;
  const lookup: LookupInput = {
    customerId: body.customer_id ?? "",
    countryCode: body.country_code ?? "",
    paymentMethod: body.payment_method ?? "",
    paymentDestination: destinationField === "qr_string" ? legacy : typed,
    paymentDestinationCode: body.payment_destination_code ?? "",
    accountType: body.account_type ?? "",
    merchantId: body.merchant_id ?? "",
    accountReference: body.account_reference ?? "",
    currency: body.currency ?? "",
    hasRecipient: recipient !== undefined,
    ...(recipient === undefined
      ? {}
      : {
          recipient: {
            nameFirst: recipient.name_first ?? "",
            nameLast: recipient.name_last ?? "",
            icNumber: recipient.ic_number ?? "",
          },
        }),
  };
  return { lookup, destinationField };
}
