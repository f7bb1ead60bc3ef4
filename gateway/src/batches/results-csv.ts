/**
 * A batch's report as one RFC 4180 CSV file (CRLF, a header row, quoting only where needed), written by
 * csv-stringify as the pages of items arrive. An empty cell is null.
 */
import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { type BatchItem, RESULT_COLUMNS } from "../operations/partner/batch-api.js";

export function resultsCsv(items: AsyncIterable<BatchItem>): Readable {
  const csv = stringify({ header: true, columns: [...RESULT_COLUMNS], record_delimiter: "windows" });
  const rows = Readable.from(
    (async function* () {
      for await (const item of items) yield RESULT_COLUMNS.map((column) => item[column] ?? "");
    })(),
  );
  rows.on("error", (error) => csv.destroy(error));
  return rows.pipe(csv);
}
