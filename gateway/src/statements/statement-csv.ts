/**
 * Statements as one RFC 4180 CSV file (CRLF, a header row, fields quoted only where needed), written by
 * csv-stringify as the lines stream in.
 *
 * Every row has the same columns, so one CSV parser reads the whole file. `record_type` says which half of
 * a row is filled: each day opens with one `summary` row (the statement's summary columns, line columns
 * empty), followed by one `line` row per line (the line columns, plus `statement_id` and `date` to group
 * by). A day without lines is its summary row alone; a range is the days one after another in one file.
 * Empty means null. The line's `id`, `type` and `currency` are `line_id`, `line_type` and `amount_currency`,
 * so no column name is shared with the summary's.
 */
import { pipeline, Readable } from "node:stream";
import { stringify } from "csv-stringify";
import {
  LINE_FIELDS,
  type StatementDocument,
  type StatementLine,
  type StatementSummary,
  SUMMARY_FIELDS,
} from "./statement-document.js";

export const CSV_RECORD_TYPES = ["summary", "line"] as const;

/** The CSV column of each line field (the others keep their wire name). */
const LINE_COLUMN_NAMES: Partial<Record<keyof StatementLine, string>> = {
  id: "line_id",
  type: "line_type",
  currency: "amount_currency",
};

export const CSV_LINE_COLUMNS = LINE_FIELDS.map((field) => LINE_COLUMN_NAMES[field] ?? field);

/** The header row, in order. */
export const CSV_COLUMNS: readonly string[] = ["record_type", ...SUMMARY_FIELDS, ...CSV_LINE_COLUMNS];

type Cell = string | number | null;

function summaryRecord(summary: StatementSummary): Cell[] {
  return ["summary", ...SUMMARY_FIELDS.map((field) => summary[field]), ...LINE_FIELDS.map(() => null)];
}

function lineRecord(summary: StatementSummary, line: StatementLine): Cell[] {
  const summaryCells = SUMMARY_FIELDS.map((field) =>
    field === "statement_id" || field === "date" ? summary[field] : null,
  );
  return ["line", ...summaryCells, ...LINE_FIELDS.map((field) => line[field])];
}

async function* csvRecords(range: AsyncIterable<StatementDocument>): AsyncGenerator<Cell[]> {
  for await (const { summary, lines } of range) {
    yield summaryRecord(summary);
    for await (const line of lines) yield lineRecord(summary, line);
  }
}

/** Records are handed on in pieces of about this many characters rather than one write per record. */
const FLUSH_CHARS = 64 * 1024;

async function* batched(records: AsyncIterable<string>): AsyncGenerator<string> {
  let parts: string[] = [];
  let size = 0;
  for await (const part of records) {
    parts.push(part);
    size += part.length;
    if (size >= FLUSH_CHARS) {
      yield parts.join("");
      parts = [];
      size = 0;
    }
  }
  if (size > 0) yield parts.join("");
}

/** The CSV text of a range, streamed: pulls the next lines only as fast as the reader takes the text. */
export function renderCsv(range: AsyncIterable<StatementDocument>): AsyncIterable<string> {
  const stringifier = stringify({
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: "windows",
    cast: { number: (value) => String(value) },
  });
  // A failing source (the ledger stream breaking mid-day) destroys the stringifier with its error, so the
  // reader sees the error instead of a file that merely looks short.
  stringifier.setEncoding("utf8");
  return batched(pipeline(Readable.from(csvRecords(range)), stringifier, () => {}));
}
