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
  /** The lines in order; `PagedLines` when they can also be read a page at a time. */
  lines: AsyncIterable<StatementLine> | PagedLines;
}

/**
 * Lines that arrive in pages (the ledger's): a renderer that works a page at a time reads `pages()`, and
 * skips the cost of one asynchronous step per line.
 */
export interface PagedLines extends AsyncIterable<StatementLine> {
  pages(): AsyncIterable<readonly StatementLine[]>;
}

/** The lines a page at a time: their own pages when they have them, else each line a page of one. */
export async function* pagesOf(
  lines: AsyncIterable<StatementLine> | PagedLines,
): AsyncGenerator<readonly StatementLine[]> {
  if ("pages" in lines) {
    yield* lines.pages();
    return;
  }
  for await (const line of lines) yield [line];
}

/** Pages as lines that can also be read a page at a time. */
export function pagedLinesOf(pages: AsyncIterable<readonly StatementLine[]>): PagedLines {
  return {
    pages: () => pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages) yield* page;
    },
  };
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
