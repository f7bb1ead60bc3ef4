/**
 * Writers of daily statements: a summary and the day's lines (an async iterable the route fills page by
 * page from the ledger) in, text chunks out, so a day or a range is written as it is read and never held
 * whole. A format (CSV, camt.053) is another `StatementWriter`; the route picks one by format.
 */
import type { StatementLine } from "../operations/partner/statement-api.js";
import type { DailyStatementSummary } from "../operations/partner/statement-day-api.js";

/** One day: its summary and its lines in feed order. */
export interface StatementDay {
  readonly summary: DailyStatementSummary;
  readonly lines: AsyncIterable<StatementLine>;
}

export interface StatementWriter {
  /** The response's Content-Type. */
  readonly contentType: string;
  /** One day's document. */
  day(summary: DailyStatementSummary, lines: AsyncIterable<StatementLine>): AsyncIterable<string>;
  /** The document of several days, in date order. */
  range(days: AsyncIterable<StatementDay>): AsyncIterable<string>;
}

/**
 * JSON: the DailyStatement object (summary fields in schema order, then `lines`), and for a range
 * `{"statements":[…]}`. Amounts are strings, so JSON.stringify writes them exactly; the same summary and
 * lines always give the same bytes.
 */
export const jsonStatementWriter: StatementWriter = {
  contentType: "application/json; charset=utf-8",
  async *day(summary, lines) {
    const head = JSON.stringify(summary);
    yield `${head.slice(0, -1)},"lines":[`;
    let first = true;
    for await (const line of lines) {
      yield `${first ? "" : ","}${JSON.stringify(line)}`;
      first = false;
    }
    yield "]}";
  },
  async *range(days) {
    yield '{"statements":[';
    let first = true;
    for await (const d of days) {
      if (!first) yield ",";
      first = false;
      yield* this.day(d.summary, d.lines);
    }
    yield "]}";
  },
};
