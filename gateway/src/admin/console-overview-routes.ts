/**
 * The operations overview: payouts of the last hour and day by corridor and status, partner
 * balances, the outbox backlog and webhook deliveries by outcome. Every figure is an aggregate the
 * services compute over indexes; the console polls this route.
 */
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { PayoutWindow } from "@payouts/proto/payouts/ledger/v1/ledger_admin_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { NO_QUERY, readQuery } from "../http/read-query.js";
import { getOverview, type Overview } from "../operations/admin/console-overview-api.js";

const HOUR = 3600;
const DAY = 86_400;

export function registerConsoleOverviewRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledgerAdmin, webhooksAdmin } = deps.clients;

  addRoute(app, getOverview, async (request): Promise<Overview> => {
    readQuery(NO_QUERY, request.query);
    const [ledger, webhooks] = await Promise.all([
      ledgerAdmin.getLedgerOverview({ windowSeconds: [HOUR, DAY] }),
      webhooksAdmin.getDeliveryStats({}),
    ]);
    const window = (seconds: number) => renderWindow(ledger.windows.find((w) => w.windowSeconds === seconds));
    return {
      as_of: timestampIso(ledger.asOf),
      payouts: { last_hour: window(HOUR), last_day: window(DAY) },
      balances: {
        total_usd: ledger.totalBalanceUsd,
        in_flight_usd: ledger.totalInFlightUsd,
        partners: Number(ledger.partners),
      },
      outbox: {
        unpublished: Number(ledger.outboxUnpublished),
        oldest_age_ms: Number(ledger.outboxOldestAgeMs),
      },
      webhooks: {
        pending: Number(webhooks.pending),
        retrying: Number(webhooks.retrying),
        delivering: Number(webhooks.delivering),
        dead: Number(webhooks.dead),
        delivered_last_hour: Number(webhooks.deliveredLastHour),
        delivered_last_day: Number(webhooks.deliveredLastDay),
        pending_disabled: Number(webhooks.pendingDisabled),
        oldest_due_age_ms: Number(webhooks.oldestDueAgeMs),
      },
    };
  });
}

function renderWindow(window: PayoutWindow | undefined): Overview["payouts"]["last_hour"] {
  const counts = window?.counts ?? [];
  return {
    since: timestampIso(window?.since),
    total: counts.reduce((sum, c) => sum + Number(c.count), 0),
    by_corridor: counts.map((c) => ({
      country: c.countryCode,
      currency: c.currency,
      status: c.status as Overview["payouts"]["last_hour"]["by_corridor"][number]["status"],
      count: Number(c.count),
      amount: c.amount,
      debited_usd: c.debitedUsd,
    })),
  };
}
