/**
 * The payout flow after lookup: `POST /getQuotation`, `POST /executePayout`, `GET /listTransactions`,
 * `GET /transactions/{tx_id}` and `GET /balance`. Business rules live in pricing and the ledger; this
 * file reads the JSON, calls them, and renders their answers.
 */

import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Dec } from "@payouts/platform/money/decimal";
import { usd } from "@payouts/platform/money/json-decimal";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import { statusFromName } from "@payouts/platform/transaction-status";
import { TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import { partnerOf } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readDp } from "../http/dp-param.js";
import { readIdempotencyKey } from "../http/idempotency-key-header.js";
import { readBody } from "../http/read-body.js";
import { readQuery } from "../http/read-query.js";
import { localAmount, renderQuoteFigures, renderTransaction } from "../http/render-transaction.js";
import { replayedRefusal } from "../http/replayed-refusal.js";
import { replyJson } from "../http/reply-json.js";
import { requestFingerprint } from "../http/request-fingerprint.js";
import { type BindingQuote, executePayout, getQuotation } from "../operations/partner/quote-api.js";
import {
  type Balance,
  getBalance,
  getTransaction,
  listTransactions,
  type TransactionList,
} from "../operations/partner/transaction-api.js";

const EXECUTE_ROUTE = "POST /executePayout";

export function registerTransactionRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledger } = deps.clients;

  addRoute(app, getQuotation, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const body = readBody(getQuotation.body, request.body);
    const { tx_id: txId, amount } = body;
    const currency = body.currency?.toUpperCase();
    const dp = readDp(request.query);
    // One call: the ledger checks the transaction (TRANSACTION_NOT_FOUND, TRANSACTION_NOT_PENDING, another
    // currency, in that order), asks pricing for the binding price (pricing's refusals come back as
    // pricing gave them) and stores it.
    const { quote } = await ledger.quoteTransaction({ partnerId, txId, currency: currency ?? "", amount });
    if (!quote) throw new Error("ledger answered no quote");
    const quoted: BindingQuote = {
      tx_id: txId,
      amount: localAmount(quote.amount, quote.currency),
      currency: quote.currency,
      ...renderQuoteFigures(quote, dp),
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
    const dp = readDp(request.query);
    const query = readQuery(listTransactions.query, request.query);
    const res = await ledger.listTransactions({
      partnerId,
      status: query.status === undefined ? TransactionStatus.UNSPECIFIED : statusOf(query.status),
      partnerTransactionId: query.partner_transaction_id ?? "",
      ...(query.created_from ? { createdFrom: timestampFromDate(new Date(query.created_from)) } : {}),
      ...(query.created_to ? { createdTo: timestampFromDate(new Date(query.created_to)) } : {}),
      limit: query.limit ?? 0,
      cursor: query.cursor ?? "",
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

function statusOf(name: string): TransactionStatus {
  const status = statusFromName(name);
  if (status === undefined) throw new Error(`status ${name} passed the shape but has no ledger value`);
  return status;
}
