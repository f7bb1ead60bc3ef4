/**
 * `GET /statements/daily/{date}/transactions`: a partner's reconciliation view of a day, from the ledger
 * (ListDayTransactions), amounts at full precision so the lines sum exactly to each balance effect.
 */

import { STATEMENT_LINE_TYPES } from "@payouts/platform/statement-feed";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import { statusWireName } from "@payouts/platform/transaction-status";
import type { DayTransaction } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import { partnerOf } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readQuery } from "../http/read-query.js";
import { replyJson } from "../http/reply-json.js";
import {
  type DayTransactionsPage,
  listDailyTransactions,
} from "../operations/partner/day-transactions-api.js";
import type { TransactionStatusName } from "../operations/partner/transaction-api.js";

export function registerDayTransactionRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledger } = deps.clients;

  addRoute(app, listDailyTransactions, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const query = readQuery(listDailyTransactions.query, request.query);
    const res = await ledger.listDayTransactions({ partnerId, date: request.params.date, ...query });
    const page: DayTransactionsPage = {
      date: res.date,
      time_zone: res.timeZone,
      period_start: timestampIso(res.periodStart) ?? "",
      period_end: timestampIso(res.periodEnd) ?? "",
      transactions: res.transactions.map(renderDayTransaction),
      next_cursor: res.nextCursor || null,
    };
    return replyJson(reply, 200, page);
  });
}

function renderDayTransaction(tx: DayTransaction): DayTransactionsPage["transactions"][number] {
  return {
    partner_transaction_id: tx.partnerTransactionId || null,
    tx_id: tx.txId,
    status: statusWireName(tx.status) as TransactionStatusName,
    created_at: timestampIso(tx.createdAt) ?? "",
    amount: tx.amount || null,
    currency: tx.currency,
    amount_usd: tx.amountUsd || null,
    fee_usd: tx.feeUsd || null,
    balance_effect_usd: tx.balanceEffectUsd,
    lines: tx.lines.map((line) => {
      const type = STATEMENT_LINE_TYPES.find((t) => t === line.type);
      if (!type) throw new Error(`ledger answered an unknown line type ${line.type}`);
      return {
        id: line.id,
        type,
        amount_usd: line.amountUsd,
        created_at: timestampIso(line.createdAt) ?? "",
        statement_date: line.statementDate,
      };
    }),
  };
}
