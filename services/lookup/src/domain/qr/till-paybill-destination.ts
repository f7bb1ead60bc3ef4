import type { MerchantInfo, PaymentType, ValidatedDestination } from "../types.js";
import { commonDestinationFields } from "./decoded-qr.js";
import type { EmvMerchantData } from "./emv-merchant-data.js";

/** The KE/TZ merchant destination (merchant_id, merchant_name, payment_type, merchant_info). */
export function tillOrPaybillDestination(
  common: EmvMerchantData,
  merchantNumber: string,
  paymentType: PaymentType,
  accountReference: string,
): ValidatedDestination {
  const merchantInfo: MerchantInfo = {
    merchant_id: merchantNumber,
    display_name: common.merchantName,
    country_code: common.countryCode,
    payment_type: paymentType,
    lipa_number: merchantNumber,
    ...(accountReference === "" ? {} : { account_reference: accountReference }),
  };
  return {
    ...commonDestinationFields(common),
    payment_method: "payment_key",
    destination_type: paymentType === "till" ? "TILL" : "PAYBILL",
    payment_destination: merchantNumber,
    payment_destination_code: paymentType === "till" ? "TILL" : "PAYBILL",
    is_business: true,
    merchant_id: merchantNumber,
    merchant_name: common.merchantName,
    payment_type: paymentType,
    merchant_info: merchantInfo,
    ...(accountReference === "" ? {} : { account_reference: accountReference }),
  };
}
