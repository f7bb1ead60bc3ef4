/**
 * Daily statements (`statement-day-routes.ts`): the partner's balance day by day in its time zone, each
 * day with its summary and its lines. A closed day never changes.
 */
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
import { STATEMENT_FORMATS } from "../../statements/formats.js";
import { StatementLine } from "./statement-api.js";

const DATE = "^\\d{4}-\\d{2}-\\d{2}$";
const DateText = (description: string) =>
  Type.String({ pattern: DATE, description, examples: ["2026-11-20"], maxLength: 10 });

/** The summary fields of a day, in the order they are written. */
export const DailyStatementSummary = Type.Object(
  {
    statement_id: Type.String({ description: "Identifier of this statement (day and revision): stable." }),
    partner_id: Type.String({ description: "The partner whose balance this is." }),
    date: DateText("The day, in `time_zone`."),
    time_zone: Type.String({
      description: "IANA time zone the day is cut in (set by operations; UTC by default).",
    }),
    period_start: Timestamp("The day's first instant (local midnight)."),
    period_end: Timestamp("The next day's first instant: 23 or 25 hours later on daylight-saving changes."),
    status: StringEnum(["open", "closed"], {
      description:
        "`closed`: frozen for good, served byte for byte the same with `ETag` = `sha256`. `open`: today, or a day within its closing grace period; lines may still be added.",
    }),
    revision: Type.Integer({
      minimum: 1,
      description: "1 as the day closed; a correction by operations stores a later revision (`?revision=`).",
    }),
    restates: Nullable.Text("The statement_id this revision corrects; null on revision 1."),
    currency: StringEnum(["USD"]),
    opening_balance_usd: DecimalString("Balance before the first line."),
    closing_balance_usd: DecimalString("opening_balance_usd + Σ lines' amount_usd."),
    line_count: Type.Integer({ minimum: 0 }),
    total_debits_usd: DecimalString("Σ of the negative lines, as a positive amount."),
    total_credits_usd: DecimalString("Σ of the positive lines."),
    sha256: Type.String({
      pattern: "^[0-9a-f]{64}$",
      description:
        'Hex SHA-256 of the canonical text of the lines: for each line, the JSON array [id, type, tx_id, partner_transaction_id, amount, currency, exchange_rate, amount_usd, created_at, balance_usd] (null as "", decimals without trailing zeros) and a newline.',
    }),
  },
  { additionalProperties: false },
);
export type DailyStatementSummary = Static<typeof DailyStatementSummary>;

export const DailyStatement = ClosedObject(
  "DailyStatement",
  {
    ...DailyStatementSummary.properties,
    lines: Type.Array(StatementLine, {
      description: "The day's lines in feed order, balances from the opening.",
    }),
  },
  { description: "One day of the balance in the partner's time zone." },
);

const StatementRange = ClosedObject("StatementRange", {
  statements: Type.Array(DailyStatement, { description: "One per day from `from`, up to today." }),
});

const FormatField = Type.Optional(
  StringEnum(STATEMENT_FORMATS, {
    description:
      "`json` (default), `csv` (RFC 4180: a summary row per day, then its lines) or `camt053` (ISO 20022 camt.053.001.08 XML). Wins over `Accept` (application/json, text/csv, application/xml).",
  }),
);

export const DayQuery = Type.Object(
  {
    format: FormatField,
    revision: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description:
          "1 (default): the day as it closed. A later revision is a restatement by operations (the original's `Link` header names it).",
      }),
    ),
  },
  { additionalProperties: false },
);

export const DayParams = Type.Object({ date: DateText("The day (YYYY-MM-DD) in your statement time zone.") });

export const RangeQuery = Type.Object(
  {
    from: DateText("First day (YYYY-MM-DD)."),
    to: DateText("Last day, included; at most 30 days after `from`."),
    format: FormatField,
  },
  { additionalProperties: false },
);

/** The statement's other formats, as the routes answer them (statement-format.ts). */
const OTHER_FORMATS = [
  {
    mediaType: "text/csv",
    description:
      "RFC 4180 CSV with a header row: per day a `summary` record, then its `line` records (`record_type` column).",
  },
  {
    mediaType: "application/xml",
    description:
      "ISO 20022 camt.053.001.08 (BkToCstmrStmt): one Stmt per day, one Ntry per line, amounts at 5 decimals.",
  },
] as const;

const NOT_ACCEPTABLE = ["NOT_ACCEPTABLE", "`Accept` allows none of JSON, CSV and XML"] as const;

const BAD_DAY = [
  "INVALID_FIELD",
  "`date`, `from` or `to` is not a date YYYY-MM-DD from 2000, `to` is before `from`, the range exceeds 31 days, or `format` is not json, csv or camt053",
] as const;
const NOT_STARTED = ["STATEMENT_DAY_NOT_STARTED", "the day has not begun in your time zone"] as const;
const NO_REVISION = ["STATEMENT_REVISION_NOT_FOUND", "the day has no such `revision`"] as const;

const operations = defineOperations(
  { tags: ["Transactions"] },
  {
    getDailyStatement: {
      route: "GET /statements/daily/{date}",
      summary: "One day's statement",
      description:
        "The day's summary and lines, as JSON, CSV or camt.053 (`format`, else `Accept`). A closed day answers the same bytes every time with a strong `ETag` (its `sha256`, suffixed `-csv` or `-camt053` for those formats); send it back in `If-None-Match` to get 304. An open day (today, or yesterday within the closing grace period) has no `ETag`. An entry that becomes visible after its day closed, and any later refund, posts on the day it is written on, never on a closed day. When operations corrected a closed day, the original is still answered as it was, with `Link: </statements/daily/{date}?revision=N>; rel=\"successor-version\"` naming the next revision: `revision=N` answers that restatement (`restates` = the original's `statement_id`, its lines followed by an `adjustment` line, its own `ETag`).",
      pathParams: DayParams,
      query: DayQuery,
      responses: {
        200: {
          description: "The statement.",
          schema: DailyStatement,
          alsoAs: OTHER_FORMATS,
          headers: {
            Link: {
              description:
                'Present when a later revision exists: `</statements/daily/{date}?revision=N>; rel="successor-version"`.',
              schema: { type: "string" },
            },
          },
        },
        304: { description: "Unchanged: the `If-None-Match` given is the closed day's `ETag`." },
      },
      errors: [BAD_DAY, NOT_STARTED, NO_REVISION, NOT_ACCEPTABLE],
    },
    listStatements: {
      route: "GET /statements",
      summary: "Daily statements of a range of days",
      description:
        "The statements of the days `from`..`to` (at most 31), each with its lines, up to today; streamed as it is read.",
      query: RangeQuery,
      responses: { 200: { description: "The statements.", schema: StatementRange, alsoAs: OTHER_FORMATS } },
      errors: [BAD_DAY, ["MISSING_REQUIRED_FIELD", "`from` or `to` is absent"], NOT_STARTED, NOT_ACCEPTABLE],
    },
  },
);
export const { getDailyStatement, listStatements } = operations;
export const STATEMENT_DAY_OPERATIONS = Object.values(operations);
