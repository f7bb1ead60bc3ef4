/**
 * A partner's reconciliation view of a day (`day-transactions-routes.ts`): every transaction created that
 * day in its statement time zone, with its status now and every statement line it produced, keyed by the
 * partner's own `partner_transaction_id`.
 */
import { STATEMENT_LINE_TYPES } from "@payouts/platform/statement-feed";
import { defineOperations, ok } from "../../api/operation.js";
import {
  ClosedObject,
  DecimalString,
  Nullable,
  type Static,
  StringEnum,
  Timestamp,
  Type,
} from "../../api/schema.js";
import { feedNextCursor, feedPageQuery } from "./feed-page.js";
import { DayParams } from "./statement-day-api.js";
import { TransactionStatus } from "./transaction-api.js";

const DayTransactionLine = ClosedObject("DayTransactionLine", {
  id: Type.String({
    description: "The statement line's `id` (as in the feed and the daily statements).",
  }),
  type: StringEnum(STATEMENT_LINE_TYPES, { description: "The statement line's type." }),
  amount_usd: DecimalString("Signed USD at full precision: negative takes from the balance."),
  created_at: Timestamp("When the line was written."),
  statement_date: Type.String({
    description:
      "The day (YYYY-MM-DD) whose statement holds the line: a refund weeks later is on its own day.",
  }),
});

const DayTransaction = ClosedObject("DayTransaction", {
  partner_transaction_id: Nullable.Text("Your reference of the transaction; null when it has none."),
  tx_id: Type.String({ description: "The transaction." }),
  status: TransactionStatus,
  created_at: Timestamp("When it was created: within the day."),
  amount: Nullable(DecimalString("The payout's local amount."), "The payout's local amount; null when none."),
  currency: Type.String({ description: "ISO 4217 of `amount`." }),
  amount_usd: Nullable(DecimalString("The quoted USD amount."), "The quoted USD amount; null until quoted."),
  fee_usd: Nullable(DecimalString("The quoted fee in USD."), "The quoted fee in USD; null until quoted."),
  balance_effect_usd: DecimalString(
    "The sum of `lines`: what the transaction has moved on your balance so far (0 until executed, 0 again after a reversal).",
  ),
  lines: Type.Array(DayTransactionLine, {
    description: "Every statement line it produced, oldest first.",
  }),
});

const DayTransactionsPage = ClosedObject("DayTransactionsPage", {
  date: Type.String({ description: "The day (YYYY-MM-DD)." }),
  time_zone: Type.String({ description: "The IANA time zone the day is cut in." }),
  period_start: Timestamp("The day's first instant."),
  period_end: Timestamp("The next day's first instant."),
  transactions: Type.Array(DayTransaction, { description: "Oldest first." }),
  next_cursor: feedNextCursor(
    "Pass as `after` for the next transactions; the `after` given when there are no more; null when the day has none.",
  ),
});
export type DayTransactionsPage = Static<typeof DayTransactionsPage>;

export const DayTransactionsQuery = feedPageQuery({
  after: "The `next_cursor` of the previous page, unchanged (opaque).",
  limit: "Transactions per page.",
});

const operations = defineOperations(
  {},
  {
    listDailyTransactions: {
      route: "GET /statements/daily/{date}/transactions",
      tags: ["Transactions"],
      summary: "Reconcile a day: its transactions and the lines each produced",
      description:
        "Every transaction you created on the day (in your statement time zone), oldest first, with its status now and every statement line it produced, whichever day's statement holds each line. Match them to your books by `partner_transaction_id`.",
      pathParams: DayParams,
      query: DayTransactionsQuery,
      responses: ok("The day's transactions.", DayTransactionsPage),
      errors: [
        [
          "INVALID_FIELD",
          "`date` is not a date YYYY-MM-DD from 2000, `after` is not a cursor of this route, or `limit` is outside 1–1000",
        ],
        ["STATEMENT_DAY_NOT_STARTED", "the day has not begun in your time zone"],
      ],
    },
  },
);
export const { listDailyTransactions } = operations;
export const DAY_TRANSACTION_OPERATIONS = Object.values(operations);
