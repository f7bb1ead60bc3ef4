/**
 * Stored transaction → payouts.ledger.v1.Transaction. Decimals travel as canonical decimal strings.
 */
import { create, type JsonObject, toJson } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { statusNameOf, statusToProto } from "@payouts/platform/transaction-status";
import {
  type Destination,
  DestinationSchema,
  type MerchantInfo,
  type Quote,
} from "@payouts/proto/payouts/common/v1/common_pb";
import {
  type StatusChange,
  type Transaction,
  TransactionSchema,
  TransactionStatus,
} from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { payoutFee, payoutTotal } from "../domain/posting-rules.js";
import type { QuoteInput, QuoteTerms } from "../domain/quote-terms.js";
import type { TxStatus } from "../domain/transaction-status.js";
import type { HistoryRow, StoredTransaction } from "../store/transaction-store.js";

export function toProtoStatus(status: TxStatus): TransactionStatus {
  return statusToProto(status);
}

export function fromProtoStatus(status: TransactionStatus): TxStatus | undefined {
  return statusNameOf(status);
}

export function destinationToJson(destination: Destination): Record<string, unknown> {
  return toJson(DestinationSchema, destination, { useProtoFieldName: true }) as Record<string, unknown>;
}

/**
 * The stored destination (destinationToJson's output: proto JSON with proto field names, defaults left out)
 * as the message, field by field. protobuf-es's reflective fromJson did the same at several times the cost
 * per row, which a page of 20 transactions pays 20 times; transaction-message.test.ts checks the two agree
 * on every field. A value of the wrong JSON type reads as the field's default, an unknown key is ignored.
 */
export function destinationFromJson(json: Record<string, unknown>): Destination {
  const str = (key: string): string => {
    const value = json[key];
    return typeof value === "string" ? value : "";
  };
  const bool = (key: string): boolean => json[key] === true;
  return {
    $typeName: "payouts.common.v1.Destination",
    countryCode: str("country_code"),
    currency: str("currency"),
    paymentMethod: str("payment_method"),
    destinationType: str("destination_type"),
    paymentDestination: str("payment_destination"),
    paymentDestinationCode: str("payment_destination_code"),
    institutionName: str("institution_name"),
    isDynamic: bool("is_dynamic"),
    isBusiness: bool("is_business"),
    merchant: str("merchant"),
    merchantId: str("merchant_id"),
    merchantName: str("merchant_name"),
    paymentType: str("payment_type"),
    merchantInfo: merchantInfoFromJson(json.merchant_info),
    recipient: jsonObject(json.recipient),
    sender: jsonObject(json.sender),
    amount: str("amount"),
    suggestedValues: jsonObject(json.suggested_values),
    accountType: str("account_type"),
    accountReference: str("account_reference"),
    source: str("source"),
    qrPayload: str("qr_payload"),
  };
}

function merchantInfoFromJson(value: unknown): MerchantInfo | undefined {
  const json = jsonObject(value);
  if (!json) return undefined;
  const str = (key: string): string => {
    const field = json[key];
    return typeof field === "string" ? field : "";
  };
  return {
    $typeName: "payouts.common.v1.MerchantInfo",
    merchantId: str("merchant_id"),
    displayName: str("display_name"),
    countryCode: str("country_code"),
    paymentType: str("payment_type"),
    lipaNumber: str("lipa_number"),
    accountReference: str("account_reference"),
  };
}

function jsonObject(value: unknown): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

export function quoteMessage(q: QuoteTerms): Quote {
  return {
    $typeName: "payouts.common.v1.Quote",
    quoteId: q.quoteId,
    amount: toDecimalString(q.amount),
    currency: q.currency,
    exchangeRate: toDecimalString(q.exchangeRate),
    amountUsd: toDecimalString(q.amountUsd),
    percentageFee: toDecimalString(q.percentageFee),
    fixedFee: toDecimalString(q.fixedFee),
    fee: toDecimalString(payoutFee(q)),
    totalUsd: toDecimalString(payoutTotal(q)),
    expiresAt: timestampFromDate(q.expiresAt),
  };
}

/** `destination`: the message `tx.destination` was made from, when the caller has it (no JSON round trip). */
export function toTransactionMessage(
  tx: StoredTransaction,
  history: readonly HistoryRow[] = [],
  destination: Destination = destinationFromJson(tx.destination),
): Transaction {
  return create(TransactionSchema, {
    txId: tx.txId,
    partnerId: tx.partnerId,
    status: toProtoStatus(tx.status),
    customerId: tx.customerId,
    destination,
    amount: tx.amount === undefined ? "" : toDecimalString(tx.amount),
    currency: tx.currency,
    ...(tx.quote ? { quote: quoteMessage(tx.quote) } : {}),
    partnerTransactionId: tx.partnerTransactionId,
    partnerAppId: tx.partnerAppId,
    walletIdentifier: tx.walletIdentifier,
    refundReason: tx.refundReason,
    failureReason: tx.failureReason,
    createdAt: timestampFromDate(tx.createdAt),
    updatedAt: timestampFromDate(tx.updatedAt),
    history: history.map(statusChange),
    providerReference: tx.providerReference,
  });
}

function statusChange(h: HistoryRow): StatusChange {
  return {
    $typeName: "payouts.ledger.v1.StatusChange",
    from: h.from === undefined ? TransactionStatus.UNSPECIFIED : toProtoStatus(h.from),
    to: toProtoStatus(h.to),
    reason: h.reason,
    at: timestampFromDate(h.at),
  };
}

/** A quote as pricing (or a lookup with an amount) hands it over, for readQuoteTerms. */
export function quoteInputOf(q: Quote): QuoteInput {
  return {
    quoteId: q.quoteId,
    amount: q.amount,
    currency: q.currency,
    exchangeRate: q.exchangeRate,
    amountUsd: q.amountUsd,
    percentageFee: q.percentageFee,
    fixedFee: q.fixedFee,
    fee: q.fee,
    totalUsd: q.totalUsd,
    expiresAt: q.expiresAt ? timestampDate(q.expiresAt) : undefined,
  };
}
