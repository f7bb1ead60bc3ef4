/**
 * The console overview: recent payouts by corridor and status, balances, the outbox backlog and webhook
 * deliveries by outcome.
 */
import { defineOperations, ok } from "../../api/operation.js";
import { ClosedObject, DecimalString, Nullable, type Static, StringEnum, Type } from "../../api/schema.js";
import { CONSOLE_TAG, Count, QUERY_CASE } from "./console-query-shapes.js";
import { TRANSACTION_STATUSES } from "./ledger-admin-api.js";

export const PayoutCount = ClosedObject("PayoutCount", {
  country: Type.String({ description: "ISO 3166 alpha-2 of the corridor." }),
  currency: Type.String({ description: "ISO 4217 of the corridor." }),
  status: StringEnum(TRANSACTION_STATUSES),
  count: Count("Transactions created in the window with this corridor and status."),
  amount: DecimalString("Sum of their local amounts (0 when none is known yet)."),
  debited_usd: DecimalString("Sum of what executed payouts debited, USD."),
});

const PayoutWindow = Type.Object(
  {
    since: Nullable.Timestamp("Transactions created at or after this instant are counted."),
    total: Count("Transactions created in the window."),
    by_corridor: Type.Array(PayoutCount),
  },
  { additionalProperties: false },
);

export const Overview = ClosedObject("Overview", {
  as_of: Nullable.Timestamp("When the figures were read."),
  payouts: Type.Object(
    { last_hour: PayoutWindow, last_day: PayoutWindow },
    { additionalProperties: false, description: "Transactions by corridor and status, every status." },
  ),
  balances: Type.Object(
    {
      total_usd: DecimalString("Sum of every partner's spendable balance."),
      in_flight_usd: DecimalString("Debited for payouts the rail has not settled yet."),
      partners: Count("Partners holding a ledger account."),
    },
    { additionalProperties: false },
  ),
  outbox: Type.Object(
    {
      unpublished: Count("Ledger events not yet published to the event bus."),
      oldest_age_ms: Count("Age of the oldest of them (0 when none)."),
    },
    { additionalProperties: false },
  ),
  webhooks: Type.Object(
    {
      pending: Count("Waiting for an attempt (first or retry), disabled configs' included."),
      retrying: Count("Pending after at least one failed attempt."),
      delivering: Count("An attempt in flight."),
      dead: Count("Given up after the last retry: redeliver by hand."),
      delivered_last_hour: Count("Delivered in the last hour."),
      delivered_last_day: Count("Delivered in the last day."),
      pending_disabled: Count("Pending deliveries of disabled configs: they wait for it."),
      oldest_due_age_ms: Count("How late the oldest due delivery of an enabled config is (0 when none)."),
    },
    { additionalProperties: false, description: "Deliveries by outcome." },
  ),
});
export type Overview = Static<typeof Overview>;

const operations = defineOperations(
  {},
  {
    getOverview: {
      route: "GET /admin/overview",
      role: "viewer",
      summary: "Operations overview",
      description:
        "Payouts of the last hour and day by corridor and status, partner balances, the outbox backlog and webhook deliveries by outcome. Cheap aggregates over indexes: poll it.",
      tags: CONSOLE_TAG,
      responses: ok("The figures.", Overview),
      errors: [QUERY_CASE],
    },
  },
);
export const { getOverview } = operations;
export const CONSOLE_OVERVIEW_OPERATIONS = Object.values(operations);
