/**
 * Operators' transaction search across partners and the transaction page: the ledger's
 * LedgerAdminService for the rows and movements, the webhook dispatcher's WebhookAdminService for the
 * deliveries. Actions on a transaction (refund, fail, sandbox settle) are in ledger-admin-routes.ts.
 */

import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { statusFromName } from "@payouts/platform/transaction-status";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { invalidField } from "../http/api-error.js";
import { NO_QUERY, readQuery } from "../http/read-query.js";
import { getTransactionDetail, searchTransactions } from "../operations/admin/console-transaction-api.js";
import { renderTransactionDetail, renderTransactionSummary } from "./console-render.js";

/** The transaction page lists this many deliveries, newest first (3 notified events × up to 10 configs fit). */
const DELIVERIES_ON_PAGE = 100;

export function registerConsoleTransactionRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledger, ledgerAdmin, webhooksAdmin } = deps.clients;

  addRoute(app, searchTransactions, async (request) => {
    const q = readQuery(searchTransactions.query, request.query);
    const status = q.status ? statusFromName(q.status) : undefined;
    const res = await ledgerAdmin.searchTransactions({
      txId: q.tx_id ?? "",
      partnerTransactionId: q.partner_transaction_id ?? "",
      partnerId: q.partner_id ?? "",
      ...(status === undefined ? {} : { status }),
      countryCode: q.country ?? "",
      currency: q.currency ?? "",
      ...createdRange(q.created_from, q.created_to),
      limit: q.limit ?? 0,
      cursor: q.cursor ?? "",
    });
    return {
      transactions: res.transactions.map(renderTransactionSummary),
      next_cursor: res.nextCursor || null,
    };
  });

  addRoute(app, getTransactionDetail, async (request) => {
    readQuery(NO_QUERY, request.query);
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

/** A creation date range: both ends optional, `created_from` not after `created_to`; as protobuf timestamps. */
function createdRange(fromText: string | undefined, toText: string | undefined) {
  const from = fromText === undefined ? undefined : new Date(fromText);
  const to = toText === undefined ? undefined : new Date(toText);
  if (from && to && from > to) throw invalidField("created_from", "must not be after created_to");
  return {
    ...(from ? { createdFrom: timestampFromDate(from) } : {}),
    ...(to ? { createdTo: timestampFromDate(to) } : {}),
  };
}
