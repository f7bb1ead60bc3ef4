/**
 * The payout flow after lookup: `POST /getQuotation`, `POST /executePayout`, `GET /listTransactions`,
 * `GET /transactions/{tx_id}` and `GET /balance`. Business rules live in pricing and the ledger; this
 * file reads the JSON, calls them, and renders their answers.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ConnectError } from "@connectrpc/connect";
import { Dec } from "@payouts/platform/money/decimal";
import { rate, usd } from "@payouts/platform/money/json-decimal";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import { TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { addRoute } from "../api/operation.js";
import { partnerOf } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { invalidField } from "../http/api-error.js";
import { readDp } from "../http/dp-param.js";
import { httpStatusFor } from "../http/error-map.js";
import { readBody } from "../http/read-body.js";
import { localAmount, renderTransaction, transactionStatusFromName } from "../http/render-transaction.js";
import { replyJson } from "../http/reply-json.js";
import { requestFingerprint } from "../http/request-fingerprint.js";
import { readIdempotencyKey } from "./idempotency-key-header.js";
import {
  type Balance,
  type BindingQuote,
  executePayout,
  getBalance,
  getQuotation,
  getTransaction,
  listTransactions,
  MAX_PAGE_SIZE,
  TRANSACTION_STATUSES,
  type TransactionList,
} from "./transaction-api.js";

const EXECUTE_ROUTE = "POST /executePayout";

export function registerTransactionRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledger, pricing } = deps.clients;

  addRoute(app, getQuotation, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const body = readBody(getQuotation.body, request.body);
    const { tx_id: txId, amount } = body;
    const currency = body.currency?.toUpperCase();
    const dp = readDp(request.query);
    // The ledger refuses, in order: TRANSACTION_NOT_FOUND, TRANSACTION_NOT_PENDING, another currency.
    const { transaction: tx } = await ledger.getQuotableTransaction({
      partnerId,
      txId,
      currency: currency ?? "",
    });
    if (!tx) throw new Error("ledger answered no transaction");
    const { quote } = await pricing.createQuote({
      partnerId,
      countryCode: tx.destination?.countryCode ?? "",
      currency: tx.currency,
      amount,
    });
    if (!quote) throw new Error("pricing answered no quote");
    await ledger.attachQuote({ partnerId, txId, quote });
    const quoted: BindingQuote = {
      tx_id: txId,
      amount: localAmount(quote.amount, quote.currency),
      currency: quote.currency,
      exchange_rate: rate(new Dec(quote.exchangeRate)),
      amount_usd: usd(new Dec(quote.amountUsd), dp),
      fee: usd(new Dec(quote.fee), dp),
      percentage_fee: usd(new Dec(quote.percentageFee), dp),
      fixed_fee: usd(new Dec(quote.fixedFee), dp),
      total_usd: usd(new Dec(quote.totalUsd), dp),
      expires_at: timestampIso(quote.expiresAt),
    };
    return replyJson(reply, 200, quoted);
  });

  addRoute(app, executePayout, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const idempotencyKey = readIdempotencyKey(request, "payout");
    const { tx_id: txId } = readBody(executePayout.body, request.body);
    const dp = readDp(request.query);
    try {
      const res = await ledger.executePayout({
        partnerId,
        txId,
        idempotencyKey,
        requestFingerprint: requestFingerprint(EXECUTE_ROUTE, request.body, { dp }),
        requestId: request.id,
      });
      if (!res.transaction) throw new Error("ledger answered no transaction");
      if (res.replayed) reply.header("Idempotent-Replayed", "true");
      return replyJson(reply, 200, renderTransaction(res.transaction, dp));
    } catch (error) {
      return replayedRefusal(error, request, reply);
    }
  });

  addRoute(app, listTransactions, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const dp = readDp(query);
    const from = queryDate(query, "created_from");
    const to = queryDate(query, "created_to");
    const res = await ledger.listTransactions({
      partnerId,
      status: queryStatus(query),
      partnerTransactionId: queryString(query, "partner_transaction_id") ?? "",
      ...(from ? { createdFrom: timestampFromDate(from) } : {}),
      ...(to ? { createdTo: timestampFromDate(to) } : {}),
      limit: queryLimit(query),
      cursor: queryString(query, "cursor") ?? "",
    });
    const page: TransactionList = {
      transactions: res.transactions.map((tx) => renderTransaction(tx, dp)),
      next_cursor: res.nextCursor || null,
    };
    return replyJson(reply, 200, page);
  });

  addRoute(app, getTransaction, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const dp = readDp(request.query);
    const { transaction } = await ledger.getTransaction({
      partnerId,
      txId: request.params.tx_id,
      includeHistory: true,
    });
    if (!transaction) throw new Error("ledger answered no transaction");
    return replyJson(reply, 200, renderTransaction(transaction, dp));
  });

  addRoute(app, getBalance, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const dp = readDp(request.query);
    const { balanceUsd } = await ledger.getBalance({ partnerId });
    const balance: Balance = { balance_usd: usd(new Dec(balanceUsd), dp), currency: "USD" };
    return replyJson(reply, 200, balance);
  });
}

/**
 * A refusal stored under the idempotency key is answered exactly as the first time — same status and the
 * same body bytes, including the first request's request_id — plus `Idempotent-Replayed: true`.
 */
function replayedRefusal(error: unknown, request: FastifyRequest, reply: FastifyReply): never | FastifyReply {
  const detail = errorDetailOf(error);
  if (!(error instanceof ConnectError) || !detail || detail.metadata.replayed !== "true") throw error;
  reply.header("Idempotent-Replayed", "true");
  return reply.code(httpStatusFor(detail.reason, error.code)).send({
    code: detail.reason,
    message: error.rawMessage,
    ...(detail.field ? { field: detail.field } : {}),
    request_id: detail.metadata.request_id || request.id,
  });
}

function queryString(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined || v === "") return undefined;
  if (typeof v !== "string" || v.length > 255)
    throw invalidField(name, "must be one string of at most 255 characters");
  return v;
}

function queryStatus(query: Record<string, unknown>): TransactionStatus {
  const name = queryString(query, "status");
  if (name === undefined) return TransactionStatus.UNSPECIFIED;
  const status = transactionStatusFromName(name.toUpperCase());
  if (status === undefined) {
    const names = [...TRANSACTION_STATUSES];
    throw invalidField("status", `must be ${names.slice(0, -1).join(", ")} or ${names.at(-1)}`);
  }
  return status;
}

// RFC 3339 date-time (with zone) or a plain date (midnight UTC).
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function queryDate(query: Record<string, unknown>, name: string): Date | undefined {
  const text = queryString(query, name);
  if (text === undefined) return undefined;
  const date = ISO_DATE.test(text) ? new Date(text) : undefined;
  if (!date || Number.isNaN(date.getTime())) {
    throw invalidField(name, "must be an ISO 8601 date or date-time with a time zone");
  }
  return date;
}

function queryLimit(query: Record<string, unknown>): number {
  const text = queryString(query, "limit");
  if (text === undefined) return 0;
  const n = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= 1 && n <= MAX_PAGE_SIZE))
    throw invalidField("limit", `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  return n;
}
