/**
 * The one partner JSON shape of a transaction (lookup and decodeQr responses, executePayout,
 * `GET /transactions/{tx_id}`, listTransactions items): local amounts at the currency's minor units,
 * USD amounts and fees at the request's `dp`, the exchange rate at 10 decimals.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { currencyByCode } from "@payouts/platform/money/currencies";
import { Dec } from "@payouts/platform/money/decimal";
import { fixed, type JsonDecimal, local, rate, usd } from "@payouts/platform/money/json-decimal";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import { statusWireName } from "@payouts/platform/transaction-status";
import type { Destination, Quote } from "@payouts/proto/payouts/common/v1/common_pb";
import {
  type StatusChange,
  type Transaction,
  TransactionStatus,
} from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type {
  QrData,
  StatusChange as StatusChangeShape,
  Transaction as TransactionShape,
  TransactionStatusName,
} from "../operations/partner/transaction-api.js";

export function renderTransaction(tx: Transaction, dp: number): TransactionShape {
  const quote = tx.quote;
  return {
    tx_id: tx.txId,
    status: statusWireName(tx.status) as TransactionStatusName,
    country: tx.destination?.countryCode ?? "",
    currency: tx.currency,
    amount: localAmount(tx.amount || "0", tx.currency),
    ...(quote ? renderQuoteFigures(quote, dp) : {}),
    partner_transaction_id: tx.partnerTransactionId,
    qr_data: renderQrData(tx.destination),
    ...(tx.failureReason ? { failure_reason: tx.failureReason } : {}),
    ...(tx.refundReason ? { refund_reason: tx.refundReason } : {}),
    created_at: timestampIso(tx.createdAt),
    updated_at: timestampIso(tx.updatedAt),
    // A transaction always has its creation in its history; an empty list means it was not asked for.
    ...(tx.history.length > 0 ? { status_history: tx.history.map(renderStatusChange) } : {}),
  };
}

/** A quote's exchange rate (10 decimals) and its USD amount and fees at `dp`, as every partner shape has them. */
export function renderQuoteFigures(quote: Quote, dp: number) {
  return {
    exchange_rate: rate(new Dec(quote.exchangeRate)),
    amount_usd: usd(new Dec(quote.amountUsd), dp),
    fee: usd(new Dec(quote.fee), dp),
    percentage_fee: usd(new Dec(quote.percentageFee), dp),
    fixed_fee: usd(new Dec(quote.fixedFee), dp),
  };
}

/** A local amount at its currency's ISO 4217 minor units (2 when the currency is not in the table). */
export function localAmount(amount: string, currency: string): JsonDecimal {
  const value = new Dec(amount);
  const minorUnits = currencyByCode(currency)?.minorUnits;
  return typeof minorUnits === "number" ? local(value, currency) : fixed(value, 2);
}

/** Who pays whom, as lookup established it; empty parts are left out. */
function renderQrData(d: Destination | undefined): QrData {
  if (!d) return {};
  const parts: Record<string, unknown> = {
    sender: party(d.sender),
    recipient: party(d.recipient),
    payment_method: d.paymentMethod,
    destination_type: d.destinationType,
    payment_destination: d.paymentDestination,
    payment_destination_code: d.paymentDestinationCode,
    institution_name: d.institutionName,
    merchant: d.merchant,
    merchant_id: d.merchantId,
    merchant_name: d.merchantName,
    payment_type: d.paymentType,
  };
  return Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== "" && v !== undefined)) as QrData;
}

function party(value: JsonObject | undefined): JsonObject | undefined {
  return value && Object.keys(value).length > 0 ? value : undefined;
}

function renderStatusChange(change: StatusChange): StatusChangeShape {
  return {
    from:
      change.from === TransactionStatus.UNSPECIFIED
        ? null
        : (statusWireName(change.from) as TransactionStatusName),
    to: statusWireName(change.to) as TransactionStatusName,
    reason: change.reason,
    at: timestampIso(change.at),
  };
}
