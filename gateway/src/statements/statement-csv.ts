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

/** Lines are handed on this many at a time rather than one write per line. */
const BATCH_LINES = 500;

const CSV_OPTIONS = {
  columns: [...CSV_COLUMNS],
  record_delimiter: "windows",
  cast: { number: (value: number) => String(value) },
} as const;

/** CSV text of records, without the header row. */
const recordsText = (records: Cell[][]) => stringify(records, { ...CSV_OPTIONS, header: false });

/**
 * Any of these in a field makes csv-stringify quote it (the delimiter, the quote and the record
 * delimiter's characters). A field without them is written as it is, null as nothing.
 */
const QUOTED_CHARACTERS = /[",\r\n]/;

/**
 * The CSV row of a line whose fields csv-stringify would write unchanged, joined here without it (the
 * same bytes, for a fraction of the cost); undefined when a field needs quoting.
 */
function plainLineText(prefixText: string, line: StatementLine): string | undefined {
  let text = prefixText;
  for (const field of LINE_FIELDS) {
    const value = line[field];
    if (typeof value === "string") {
      if (QUOTED_CHARACTERS.test(value)) return undefined;
      text += value;
    } else if (value !== null) return undefined;
    text += field === LAST_LINE_FIELD ? "\r\n" : ",";
  }
  return text;
}

const LAST_LINE_FIELD = LINE_FIELDS[LINE_FIELDS.length - 1];

/**
 * The CSV text of a range, streamed: pulls the next lines only as fast as the reader takes the text, and
 * hands them on BATCH_LINES rows at a time. The header and summary rows, and any line with a field to
 * quote, are written by csv-stringify's synchronous API; every row ends with its CRLF, so the pieces
 * concatenate to the text one stringifier would write for all records (header first).
 */
export async function* renderCsv(range: AsyncIterable<StatementDocument>): AsyncGenerator<string> {
  let text = stringify([], { ...CSV_OPTIONS, header: true });
  let rows = 0;
  for await (const { summary, lines } of range) {
    text += recordsText([summaryRecord(summary)]);
    const prefix = linePrefix(summary);
    // The prefix's own cells as csv-stringify writes them, with the comma before the line's first cell.
    const prefixText = `${stringify([prefix], { record_delimiter: "windows" }).slice(0, -2)},`;
    for await (const page of pagesOf(lines)) {
      for (const line of page) {
        text += plainLineText(prefixText, line) ?? recordsText([lineRecord(prefix, line)]);
        rows += 1;
        if (rows === BATCH_LINES) {
          yield text;
          text = "";
          rows = 0;
        }
      }
    }
  }
  yield text;
}
