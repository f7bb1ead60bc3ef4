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
import { stringify } from "csv-stringify/sync";
import {
  LINE_FIELDS,
  pagesOf,
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

/** The cells of a line row before the line's own: `record_type` and the summary columns it repeats. */
function linePrefix(summary: StatementSummary): Cell[] {
  const summaryCells = SUMMARY_FIELDS.map((field) =>
    field === "statement_id" || field === "date" ? summary[field] : null,
  );
  return ["line", ...summaryCells];
}

function lineRecord(prefix: readonly Cell[], line: StatementLine): Cell[] {
  const record = prefix.slice();
  for (const field of LINE_FIELDS) record.push(line[field]);
  return record;
}

/** Records are stringified and handed on this many at a time rather than one write per record. */
const BATCH_RECORDS = 500;

const CSV_OPTIONS = {
  columns: [...CSV_COLUMNS],
  record_delimiter: "windows",
  cast: { number: (value: number) => String(value) },
} as const;

/**
 * The CSV text of a range, streamed: pulls the next page of lines only as fast as the reader takes the
 * text. Each batch of records is one call of csv-stringify's synchronous API; every record ends with its
 * CRLF, so the batches concatenate to the text one stringifier would write for all records (header first).
 */
export async function* renderCsv(range: AsyncIterable<StatementDocument>): AsyncGenerator<string> {
  let header = true;
  let records: Cell[][] = [];
  const take = () => {
    const text = stringify(records, { ...CSV_OPTIONS, header });
    header = false;
    records = [];
    return text;
  };
  for await (const { summary, lines } of range) {
    records.push(summaryRecord(summary));
    const prefix = linePrefix(summary);
    for await (const page of pagesOf(lines)) {
      for (const line of page) {
        records.push(lineRecord(prefix, line));
        if (records.length >= BATCH_RECORDS) yield take();
      }
    }
  }
  yield take();
}
