/**
 * A daily statement as the renderers read it: the summary the ledger closed (wire names, as in the JSON
 * statement) and its lines, streamed. A range of days is an `AsyncIterable<StatementDocument>`, one per day
 * in date order.
 */
import type { StatementLine } from "../operations/partner/statement-api.js";

export type { StatementLine };

export interface StatementSummary {
  statement_id: string;
  partner_id: string;
  /** YYYY-MM-DD, the partner's local day. */
  date: string;
  /** IANA time zone of `date`. */
  time_zone: string;
  /** RFC 3339 instants bounding the day. */
  period_start: string;
  period_end: string;
  status: "open" | "closed";
  revision: number;
  restates: string | null;
  currency: "USD";
  /** Decimal strings at full precision. */
  opening_balance_usd: string;
  closing_balance_usd: string;
  line_count: number;
  total_debits_usd: string;
  total_credits_usd: string;
  /** Hex SHA-256 the ledger computed over the lines' canonical form. */
  sha256: string;
}

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
