/**
 * `GET /balance/entries`: the partner's statement feed from the ledger (ListStatementLines), rendered at
 * full precision so the lines sum exactly to the balances shown.
 */
import { STATEMENT_LINE_TYPES } from "@payouts/platform/statement-feed";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { StatementLine as LineMessage } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import { partnerOf } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readQuery } from "../http/read-query.js";
import { replyJson } from "../http/reply-json.js";
import {
  listBalanceEntries,
  type StatementLine,
  type StatementPage,
} from "../operations/partner/statement-api.js";

export function registerStatementRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledger } = deps.clients;

  addRoute(app, listBalanceEntries, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const query = readQuery(listBalanceEntries.query, request.query);
    const res = await ledger.listStatementLines({ partnerId, ...query });
    const page: StatementPage = { entries: res.lines.map(renderLine), next_cursor: res.nextCursor || null };
    return replyJson(reply, 200, page);
  });
}

/** A ledger line message as the partner JSON line (the feed's and the daily statements'). */
export function renderLine(line: LineMessage): StatementLine {
  const type = STATEMENT_LINE_TYPES.find((t) => t === line.type);
  if (!type) throw new Error(`ledger answered an unknown line type ${line.type}`);
  return {
    id: line.id,
    type,
    tx_id: line.txId || null,
    partner_transaction_id: line.partnerTransactionId || null,
    amount: line.amount || null,
    currency: line.currency || null,
    exchange_rate: line.exchangeRate || null,
    amount_usd: line.amountUsd,
    created_at: timestampIso(line.createdAt) ?? "",
    balance_usd: line.balanceAfterUsd,
  };
}
