/**
 * Operators' transaction search across partners and the transaction page (issue 15): the ledger's
 * LedgerAdminService for the rows and movements, the webhook dispatcher's WebhookAdminService for the
 * deliveries. Actions on a transaction (refund, fail, sandbox settle) are in ledger-admin-routes.ts.
 */
import type { FastifyInstance } from "fastify";
import type { GatewayDeps } from "../gateway-deps.js";
import { transactionStatusFromName } from "../http/render-transaction.js";
import { dateRange, ID_PATTERN, QueryReader } from "./console-query.js";
import { renderTransactionDetail, renderTransactionSummary } from "./console-render.js";

const STATUSES = ["PENDING", "PROCESSING", "SUCCESS", "FAILED", "REFUNDED", "EXPIRED"] as const;
const SEARCH_PARAMS = [
  "tx_id",
  "partner_transaction_id",
  "partner_id",
  "status",
  "country",
  "currency",
  "created_from",
  "created_to",
  "limit",
  "cursor",
];
/** The transaction page lists this many deliveries, newest first (3 notified events × up to 10 configs fit). */
const DELIVERIES_ON_PAGE = 100;

export function registerConsoleTransactionRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledger, ledgerAdmin, webhooksAdmin } = deps.clients;

  app.get("/admin/transactions", async (request) => {
    const q = new QueryReader(request.query, SEARCH_PARAMS);
    const statusName = q.oneOf("status", STATUSES, { upper: true });
    const status = statusName ? transactionStatusFromName(statusName) : undefined;
    const res = await ledgerAdmin.searchTransactions({
      txId: q.string("tx_id", { pattern: ID_PATTERN }) ?? "",
      partnerTransactionId: q.string("partner_transaction_id") ?? "",
      partnerId: q.string("partner_id", { pattern: ID_PATTERN }) ?? "",
      ...(status === undefined ? {} : { status }),
      countryCode: q.string("country", { pattern: /^[A-Z]{2}$/, upper: true }) ?? "",
      currency: q.string("currency", { pattern: /^[A-Z]{3}$/, upper: true }) ?? "",
      ...dateRange(q, "created_from", "created_to"),
      limit: q.limit(),
      cursor: q.cursor(),
    });
    return {
      transactions: res.transactions.map(renderTransactionSummary),
      next_cursor: res.nextCursor || null,
    };
  });

  app.get<{ Params: { tx_id: string } }>("/admin/transactions/:tx_id", async (request) => {
    new QueryReader(request.query, []);
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
