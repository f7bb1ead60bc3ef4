/**
 * The statement feed (`statement-routes.ts`): the lines of the partner's balance, in a stable order, paged
 * by an opaque cursor that never skips a line committed late.
 */
import { STATEMENT_LINE_TYPES } from "@payouts/platform/statement-feed";
import { defineOperations } from "../../api/operation.js";
import {
  ClosedObject,
  DecimalString,
  Nullable,
  type Static,
  StringEnum,
  Timestamp,
  Type,
} from "../../api/schema.js";
import { STATEMENT_PAGE_EXAMPLE } from "../../openapi/openapi-examples.js";
import { feedNextCursor, feedPageQuery } from "./feed-page.js";

const nullableDecimal = (description: string) => Nullable(DecimalString(description), description);

export const StatementLine = ClosedObject(
  "StatementLine",
  {
    id: Type.String({ description: "Identifier of the line: stable and opaque." }),
    type: StringEnum(STATEMENT_LINE_TYPES, {
      description:
        "`credit` (funds added by operations), `payout` (the payout's amount_usd, debited on executePayout), `fee` (the payout's fee, on its own line after each payout, reversal and refund line), `reversal` (the rail failed the payout: amount returned), `refund` (operations refunded it). New types may be added: read an unknown one as a signed amount.",
    }),
    tx_id: Nullable.Text("The transaction; null on credits."),
    partner_transaction_id: Nullable.Text("Your reference of the transaction; null when it has none."),
    amount: nullableDecimal("The payout's local amount; on payout, reversal and refund lines, else null."),
    currency: Nullable.Text("ISO 4217 of `amount`; null when `amount` is."),
    exchange_rate: nullableDecimal(
      "Units of `currency` per 1 USD of the payout's quote; null when `amount` is.",
    ),
    amount_usd: DecimalString("Signed USD at full precision: negative takes from the balance."),
    created_at: Timestamp("When the entry was written."),
    balance_usd: DecimalString("The balance right after this line, in feed order, at full precision."),
  },
  { description: "One line of the partner's statement." },
);
export type StatementLine = Static<typeof StatementLine>;

const StatementPage = ClosedObject("StatementPage", {
  entries: Type.Array(StatementLine, { description: "In feed order." }),
  next_cursor: feedNextCursor(
    "Pass as `after` for the next lines; the `after` given when nothing is new; null only while there is no line yet.",
  ),
});
export type StatementPage = Static<typeof StatementPage>;

export const StatementQuery = feedPageQuery({
  after: "The `next_cursor` of the previous page, unchanged (opaque); omit for the first line.",
  limit: "Lines per page.",
});

const operations = defineOperations(
  {},
  {
    listBalanceEntries: {
      route: "GET /balance/entries",
      tags: ["Transactions"],
      summary: "The statement feed: every line of the balance, gap-free",
      description:
        "Every movement of your USD balance as statement lines, oldest first in a stable feed order, each with the balance after it. Poll with the last `next_cursor`: a line never appears before a position already returned, so following the cursor misses nothing and repeats nothing. A line shows up once every database transaction that began before it has ended (usually within milliseconds).",
      query: StatementQuery,
      responses: {
        200: {
          description: "The next lines.",
          schema: StatementPage,
          examples: { page: STATEMENT_PAGE_EXAMPLE },
        },
      },
      errors: [
        ["INVALID_FIELD", "`after` is not a cursor returned by this route, or `limit` is outside 1–1000"],
      ],
    },
  },
);
export const { listBalanceEntries } = operations;
export const STATEMENT_OPERATIONS = Object.values(operations);
