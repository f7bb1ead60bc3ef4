/**
 * Stored transaction → payouts.ledger.v1.Transaction. Decimals travel as canonical decimal strings.
 */
import { create, fromJson, type JsonValue, toJson } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { type Destination, DestinationSchema, type Quote } from "@payouts/proto/payouts/common/v1/common_pb";
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

const STATUS: Readonly<Record<TxStatus, TransactionStatus>> = {
  PENDING: TransactionStatus.PENDING,
  PROCESSING: TransactionStatus.PROCESSING,
  SUCCESS: TransactionStatus.SUCCESS,
  FAILED: TransactionStatus.FAILED,
  REFUNDED: TransactionStatus.REFUNDED,
  EXPIRED: TransactionStatus.EXPIRED,
};

export function toProtoStatus(status: TxStatus): TransactionStatus {
  return STATUS[status];
}

export function fromProtoStatus(status: TransactionStatus): TxStatus | undefined {
  return (Object.keys(STATUS) as TxStatus[]).find((s) => STATUS[s] === status);
}

export function destinationToJson(destination: Destination): Record<string, unknown> {
  return toJson(DestinationSchema, destination, { useProtoFieldName: true }) as Record<string, unknown>;
}

export function destinationFromJson(json: Record<string, unknown>): Destination {
  return fromJson(DestinationSchema, json as JsonValue, { ignoreUnknownFields: true });
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
