import { create } from "@bufbuild/protobuf";
import { type Destination, DestinationSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import type { ValidatedDestination } from "../domain/types.js";

/** Where a destination came from: a typed lookup or a scanned QR (Destination.source). */
export type DestinationSource = "lookup" | "decode_qr";

export interface DestinationContext {
  /** The sender map, from the registered customer. */
  readonly sender: Record<string, string>;
  readonly source: DestinationSource;
  /** decode_qr only: the payload as decoded. */
  readonly qrPayload?: string;
}

/** A validated (and named) destination as the payouts.common.v1.Destination every service shares. */
export function destinationMessage(d: ValidatedDestination, context: DestinationContext): Destination {
  return create(DestinationSchema, {
    countryCode: d.country_code,
    currency: d.currency,
    paymentMethod: d.payment_method,
    destinationType: d.destination_type,
    paymentDestination: d.payment_destination,
    paymentDestinationCode: d.payment_destination_code,
    institutionName: d.institution_name,
    isDynamic: d.is_dynamic,
    isBusiness: d.is_business,
    merchant: d.merchant,
    merchantId: d.merchant_id,
    merchantName: d.merchant_name,
    paymentType: d.payment_type ?? "",
    ...(d.merchant_info === undefined
      ? {}
      : {
          merchantInfo: {
            merchantId: d.merchant_info.merchant_id,
            displayName: d.merchant_info.display_name,
            countryCode: d.merchant_info.country_code,
            paymentType: d.merchant_info.payment_type,
            lipaNumber: d.merchant_info.lipa_number ?? "",
            accountReference: d.merchant_info.account_reference ?? "",
          },
        }),
    recipient: withoutBlanks(d.recipient),
    sender: context.sender,
    amount: d.amount,
    suggestedValues: { ...d.suggested_values },
    accountType: d.account_type ?? "",
    accountReference: d.account_reference ?? "",
    source: context.source,
    qrPayload: context.qrPayload ?? "",
  });
}

// Businesses have no first and last name; an empty key says nothing a missing key would not.
function withoutBlanks(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).filter(([, value]) => value !== ""));
}
