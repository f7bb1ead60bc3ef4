/**
 * The rows of an uploaded batch file, read as the bytes arrive: CSV by csv-parse (a UTF-8 BOM, CRLF or LF,
 * quoted fields with commas, quotes and line breaks), NDJSON by split2 (one JSON object a line). Rows are
 * pulled one at a time by the caller's `for await`, so the parser, and through it the request, is read no
 * faster than rows are used. The bytes are counted and hashed (SHA-256) on the way in; the byte past
 * `maxBytes` and the row past `maxRows` end the read with 413 BATCH_TOO_LARGE at once, and the rest of the
 * request is never read into memory.
 */
import { createHash } from "node:crypto";
import { type Readable, Transform, type TransformCallback } from "node:stream";
import { CsvError, parse } from "csv-parse";
import split2 from "split2";
import { ApiError, invalidField } from "../http/api-error.js";
import { checkJsonBody } from "../http/text-safety.js";
import { CSV_UPLOAD_COLUMNS } from "../operations/partner/batch-api.js";

export type UploadFormat = "csv" | "ndjson";

export interface UploadRow {
  /** 1-based among the data rows (the CSV header is not a row). */
  readonly rowNumber: number;
  /** The row as the JSON object of one item (`BatchItemRequest`), before its shape is checked. */
  readonly item: Record<string, unknown>;
}

export interface UploadLimits {
  readonly maxRows: number;
  readonly maxBytes: number;
}

/** What the whole file hashed to; known once every row has been read. */
export interface UploadDigest {
  sha256(): string;
}

/** Longest NDJSON line read (one item is far shorter). */
const MAX_LINE_CHARS = 64 * 1024;

const tooLarge = (what: string) =>
  new ApiError(413, "BATCH_TOO_LARGE", `the file has more than ${what}`, undefined, { Connection: "close" });

/** Counts and hashes the bytes passing through; the byte past the cap fails the stream. */
class ByteMeter extends Transform {
  private bytes = 0;
  private readonly hash = createHash("sha256");

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(tooLarge(`${this.maxBytes} bytes`));
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }

  sha256(): string {
    return this.hash.digest("hex");
  }
}

const RECIPIENT_PREFIX = "recipient_";

/** Checks the header row: every column known, none twice. */
function csvColumns(header: string[]): string[] {
  const seen = new Set<string>();
  return header.map((raw, i) => {
    const name = i === 0 ? raw.replace(/^\uFEFF/, "").trim() : raw.trim();
    if (!(CSV_UPLOAD_COLUMNS as readonly string[]).includes(name)) {
      throw invalidField(
        "header",
        `has an unknown column "${name}"; columns are ${CSV_UPLOAD_COLUMNS.join(", ")}`,
      );
    }
    if (seen.has(name)) throw invalidField("header", `names column "${name}" twice`);
    seen.add(name);
    return name;
  });
}

/** A CSV record (column → cell) as an item: empty cells are absent, `recipient_*` fill `recipient`. */
function csvItem(record: Record<string, string>): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  const recipient: Record<string, string> = {};
  for (const [column, cell] of Object.entries(record)) {
    if (cell === "") continue;
    if (column.startsWith(RECIPIENT_PREFIX)) recipient[column.slice(RECIPIENT_PREFIX.length)] = cell;
    else item[column] = cell;
  }
  if (Object.keys(recipient).length > 0) item.recipient = recipient;
  return item;
}

function ndjsonItem(line: string, rowNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw invalidField(`rows[${rowNumber}]`, "is not a JSON object");
  }
}

/** Text PostgreSQL would refuse or alter (NUL, a lone surrogate) is refused, naming row and field. */
function checkRowText(item: unknown, rowNumber: number): void {
  try {
    checkJsonBody(item);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const field = error.field === "request body" || !error.field ? "" : `.${error.field}`;
    throw invalidField(`rows[${rowNumber}]${field}`, error.message.replace(/^\S+ /, ""));
  }
}

function csvError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  // Every csv-parse refusal, whatever its code (INVALID_OPENING_QUOTE has no CSV_ prefix), is a bad file.
  if (error instanceof CsvError) {
    const line = (error as CsvError & { lines?: number }).lines ?? "?";
    return invalidField("file", `is not valid CSV (${error.code} at line ${line})`);
  }
  const e = error as { message?: string };
  if (e.message === "maximum buffer reached") {
    return invalidField("file", `has a line longer than ${MAX_LINE_CHARS} characters`);
  }
  return error;
}

/**
 * The rows of `source`, in order. Throws ApiError: BATCH_TOO_LARGE (413), INVALID_FIELD for malformed
 * CSV or a line that is not JSON. `digest.sha256()` is the file's hash once the last row has been read.
 */
export function uploadRows(
  source: Readable,
  format: UploadFormat,
  limits: UploadLimits,
): { rows: AsyncGenerator<UploadRow>; digest: UploadDigest } {
  const meter = new ByteMeter(limits.maxBytes);
  const parser =
    format === "csv"
      ? parse({ bom: true, columns: csvColumns, skip_empty_lines: true, relax_column_count: false })
      : split2({ maxLength: MAX_LINE_CHARS });
  const onSourceError = (error: Error) => meter.destroy(error);
  source.on("error", onSourceError);
  meter.on("error", (error) => parser.destroy(error));
  source.pipe(meter).pipe(parser);

  async function* rows(): AsyncGenerator<UploadRow> {
    let rowNumber = 0;
    try {
      for await (const record of parser as AsyncIterable<Record<string, string> | string>) {
        if (typeof record === "string" && record.trim() === "") continue;
        rowNumber++;
        if (rowNumber > limits.maxRows) throw tooLarge(`${limits.maxRows} rows`);
        const item =
          typeof record === "string" ? ndjsonItem(record.replace(/^\uFEFF/, ""), rowNumber) : csvItem(record);
        checkRowText(item, rowNumber);
        yield { rowNumber, item: item as Record<string, unknown> };
      }
    } catch (error) {
      throw csvError(error);
    } finally {
      // Stop reading the request: what is left of it is never parsed.
      source.unpipe(meter);
      source.off("error", onSourceError);
      meter.destroy();
    }
  }

  return { rows: rows(), digest: { sha256: () => meter.sha256() } };
}
