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
import { TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { partnerOf } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError, invalidField } from "../http/api-error.js";
import { BodyReader } from "../http/body-reader.js";
import { readDp } from "../http/dp-param.js";
import { httpStatusFor } from "../http/error-map.js";
import {
  iso,
  localAmount,
  renderTransaction,
  transactionStatusFromName,
} from "../http/render-transaction.js";
import { replyJson } from "../http/reply-json.js";
import { requestFingerprint } from "../http/request-fingerprint.js";
import { readIdempotencyKey } from "./idempotency-key-header.js";

const EXECUTE_ROUTE = "POST /executePayout";
const MAX_PAGE_SIZE = 100;

export function registerTransactionRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledger, pricing } = deps.clients;

  app.post("/getQuotation", async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const body = new BodyReader(request.body);
    const txId = body.string("tx_id", { required: true, max: 100 });
    const amount = positiveAmount(body);
    const currency = body.string("currency", { pattern: /^[A-Za-z]{3}$/ })?.toUpperCase();
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
    return replyJson(reply, 200, {
      tx_id: txId,
      amount: localAmount(quote.amount, quote.currency),
      currency: quote.currency,
      exchange_rate: rate(new Dec(quote.exchangeRate)),
      amount_usd: usd(new Dec(quote.amountUsd), dp),
      fee: usd(new Dec(quote.fee), dp),
      percentage_fee: usd(new Dec(quote.percentageFee), dp),
      fixed_fee: usd(new Dec(quote.fixedFee), dp),
      total_usd: usd(new Dec(quote.totalUsd), dp),
      expires_at: iso(quote.expiresAt),
    });
  });

  app.post("/executePayout", async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const idempotencyKey = readIdempotencyKey(request, "payout");
    const body = new BodyReader(request.body);
    const txId = body.string("tx_id", { required: true, max: 100 });
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

  app.get("/listTransactions", async (request, reply) => {
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
    return replyJson(reply, 200, {
      transactions: res.transactions.map((tx) => renderTransaction(tx, dp)),
      next_cursor: res.nextCursor || null,
    });
  });

  app.get<{ Params: { tx_id: string } }>("/transactions/:tx_id", async (request, reply) => {
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

  app.get("/balance", async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const dp = readDp(request.query);
    const { balanceUsd } = await ledger.getBalance({ partnerId });
    return replyJson(reply, 200, { balance_usd: usd(new Dec(balanceUsd), dp), currency: "USD" });
  });
}

function positiveAmount(body: BodyReader): string {
  const text = body.decimalText("amount", { required: true }) ?? "";
  if (!new Dec(text).gt(0))
    throw new ApiError(400, "INVALID_AMOUNT", "amount must be greater than 0", "amount");
  return text;
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
    throw invalidField("status", "must be PENDING, PROCESSING, SUCCESS, FAILED, REFUNDED or EXPIRED");
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
