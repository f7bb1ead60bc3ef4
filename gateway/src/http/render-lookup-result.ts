import type { JsonObject } from "@bufbuild/protobuf";
import { Dec } from "@payouts/platform/money/decimal";
import { local, usd } from "@payouts/platform/money/json-decimal";
import type { Destination, MerchantInfo, Quote } from "@payouts/proto/payouts/common/v1/common_pb";
import type { LookupResult } from "../operations/partner/lookup-api.js";

/** What a lookup or a QR decoding produced, once its PENDING transaction exists. */
export interface LookupOutcome {
  readonly txId: string;
  readonly destination: Destination;
  /** Local amount of the transaction; undefined while the partner has not given one. */
  readonly amount: Dec | undefined;
  /** The quote priced for `amount`, when there is one. */
  readonly quote: Quote | undefined;
  readonly partnerTransactionId: string;
  /** Decimal places of USD amounts and fees (`dp`). */
  readonly dp: number;
}

type MissingField = LookupResult["missing_fields"][number];

/**
 * The partner API's lookup result, shared by `POST /lookupPaymentCode` and `POST /decodeQr`. Merchant fields appear
 * only when the destination has them (tills, paybills, merchant QRs); pricing fields only when the amount is
 * greater than 0. Local amounts use the currency's minor units, USD figures `dp`.
 */
export function renderLookupResult(outcome: LookupOutcome): LookupResult {
  const d = outcome.destination;
  return {
    is_dynamic: d.isDynamic,
    is_business: d.isBusiness,
    amount: local(outcome.amount ?? new Dec(0), d.currency),
    merchant: d.merchant,
    ...merchantFields(d),
    country: d.countryCode,
    tx_id: outcome.txId,
    currency: d.currency,
    partner_transaction_id: outcome.partnerTransactionId,
    ...pricingFields(outcome),
    missing_fields: missingFields(outcome),
    suggested_values: d.suggestedValues ?? {},
    sender: d.sender ?? {},
    recipient: d.recipient ?? {},
  };
}

function merchantFields(d: Destination): Record<string, unknown> {
  return {
    ...nonEmpty("merchant_id", d.merchantId),
    ...nonEmpty("merchant_name", d.merchantName),
    ...nonEmpty("payment_type", d.paymentType),
    ...(d.merchantInfo === undefined ? {} : { merchant_info: merchantInfo(d.merchantInfo) }),
  };
}

function merchantInfo(info: MerchantInfo): JsonObject {
  return {
    ...nonEmpty("merchant_id", info.merchantId),
    ...nonEmpty("display_name", info.displayName),
    ...nonEmpty("country_code", info.countryCode),
    ...nonEmpty("payment_type", info.paymentType),
    ...nonEmpty("lipa_number", info.lipaNumber),
    ...nonEmpty("account_reference", info.accountReference),
  };
}

function pricingFields({ amount, quote, dp }: LookupOutcome): Record<string, unknown> {
  if (amount === undefined || !amount.gt(0) || quote === undefined) return {};
  return {
    amount_usd: usd(new Dec(quote.amountUsd), dp),
    fee: usd(new Dec(quote.fee), dp),
    percentage_fee: usd(new Dec(quote.percentageFee), dp),
    fixed_fee: usd(new Dec(quote.fixedFee), dp),
  };
}

/** What the partner still has to give before the payout can run (`missing_fields`). */
function missingFields({ amount, destination }: LookupOutcome): MissingField[] {
  const missing: MissingField[] = [];
  if (amount === undefined || !amount.gt(0))
    missing.push({ field: "amount", type: "numeric", label: "Amount" });
  // A paybill QR may leave the bill reference to the payer.
  if (destination.paymentType === "paybill" && destination.accountReference === "") {
    missing.push({ field: "account_reference", type: "string", label: "Account reference" });
  }
  return missing;
}

const nonEmpty = (key: string, value: string): Record<string, string> =>
  value === "" ? {} : { [key]: value };
