/**
 * Operators' transaction search across partners and the transaction page (issue 15): the ledger's
 * LedgerAdminService for the rows and movements, the webhook dispatcher's WebhookAdminService for the
 * deliveries. Actions on a transaction (refund, fail, sandbox settle) are in ledger-admin-routes.ts.
 */
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { transactionStatusFromName } from "../http/render-transaction.js";
import { getTransactionDetail, searchTransactions } from "./console-api.js";
import { dateRange, QueryReader } from "./console-query.js";
import { renderTransactionDetail, renderTransactionSummary } from "./console-render.js";

/** The transaction page lists this many deliveries, newest first (3 notified events × up to 10 configs fit). */
const DELIVERIES_ON_PAGE = 100;

export function registerConsoleTransactionRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledger, ledgerAdmin, webhooksAdmin } = deps.clients;

  addRoute(app, searchTransactions, async (request) => {
    const q = new QueryReader(request.query, searchTransactions.query);
    const statusName = q.string("status", { upper: true });
    const status = statusName ? transactionStatusFromName(statusName) : undefined;
    const res = await ledgerAdmin.searchTransactions({
      txId: q.string("tx_id") ?? "",
      partnerTransactionId: q.string("partner_transaction_id") ?? "",
      partnerId: q.string("partner_id") ?? "",
      ...(status === undefined ? {} : { status }),
      countryCode: q.string("country", { upper: true }) ?? "",
      currency: q.string("currency", { upper: true }) ?? "",
      ...dateRange(q, "created_from", "created_to"),
      limit: q.limit(),
      cursor: q.cursor(),
    });
    return {
      transactions: res.transactions.map(renderTransactionSummary),
      next_cursor: res.nextCursor || null,
    };
  });

  addRoute(app, getTransactionDetail, async (request) => {
    new QueryReader(request.query, undefined);
    const txId = request.params.tx_id;
    const { transaction } = await ledger.getTransaction({ txId, includeHistory: true });
    if (!transaction) throw new Error("ledger answered no transaction");
    const [movements, deliveries] = await Promise.all([
      ledgerAdmin.listTransactionMovements({ txId }),
      webhooksAdmin.searchDeliveries({ txId, partnerId: transaction.partnerId, limit: DELIVERIES_ON_PAGE }),
    ]);
    return renderTransactionDetail(transaction, movements.movements, deliveries.deliveries);
  });
}
