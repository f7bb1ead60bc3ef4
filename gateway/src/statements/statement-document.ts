/**
 * A daily statement as the renderers read it: the summary the ledger closed (wire names, as in the JSON
 * statement) and its lines, streamed. A range of days is an `AsyncIterable<StatementDocument>`, one per day
 * in date order.
 */
import type { StatementLine } from "../operations/partner/statement-api.js";
import type { DailyStatementSummary } from "../operations/partner/statement-day-api.js";

export type { StatementLine };

/** The summary the ledger froze (or computes, for an open day), as the partner API's DailyStatement has it. */
export type StatementSummary = DailyStatementSummary;

export interface StatementDocument {
  summary: StatementSummary;
  lines: AsyncIterable<StatementLine>;
}

/** Field order of a summary on the wire; JSON and CSV both follow it. */
export const SUMMARY_FIELDS = [
  "statement_id",
  "partner_id",
  "date",
  "time_zone",
  "period_start",
  "period_end",
  "status",
  "revision",
  "restates",
  "currency",
  "opening_balance_usd",
  "closing_balance_usd",
  "line_count",
  "total_debits_usd",
  "total_credits_usd",
  "sha256",
] as const satisfies readonly (keyof StatementSummary)[];

/** Field order of a line on the wire (the feed's `StatementLine`). */
export const LINE_FIELDS = [
  "id",
  "type",
  "tx_id",
  "partner_transaction_id",
  "amount",
  "currency",
  "exchange_rate",
  "amount_usd",
  "created_at",
  "balance_usd",
] as const satisfies readonly (keyof StatementLine)[];

// Both lists name every field of their type: a field added to the type without its place here fails to compile.
type Unlisted<T, Listed> = Exclude<keyof T, Listed>;
const summaryFieldsComplete: [Unlisted<StatementSummary, (typeof SUMMARY_FIELDS)[number]>] extends [never]
  ? true
  : never = true;
const lineFieldsComplete: [Unlisted<StatementLine, (typeof LINE_FIELDS)[number]>] extends [never]
  ? true
  : never = true;
void summaryFieldsComplete;
void lineFieldsComplete;
