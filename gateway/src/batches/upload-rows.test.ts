import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ApiError } from "../http/api-error.js";
import { type UploadFormat, type UploadRow, uploadRows } from "./upload-rows.js";

const LIMITS = { maxRows: 10_000, maxBytes: 16 * 1024 * 1024 };
const HEADER =
  "item_ref,amount,partner_transaction_id,expected_name,customer_id,country_code,payment_method,payment_destination,recipient_name_first,recipient_name_last";

function csvRow(n: number): string {
  // A quoted name with a comma and a doubled quote, an empty cell, a BO recipient.
  return `row-${n},${n}.50,ptx-${n},"Silva, Ana ""Nina"" ${n}",cus_1,BO,bank_transfer,${1000000 + n},Ana,`;
}

/** The file in pieces of an odd size, so quoted fields and CRLFs fall across chunk boundaries. */
function chunked(bytes: Buffer, size = 777): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    })(),
  );
}

async function collect(source: Readable, format: UploadFormat, limits = LIMITS) {
  const { rows, digest } = uploadRows(source, format, limits);
  const out: UploadRow[] = [];
  for await (const row of rows) out.push(row);
  return { rows: out, sha256: digest.sha256() };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("uploadRows", () => {
  it("reads a UTF-8 CSV of 10,000 rows with a BOM, CRLF and quoted commas, and hashes its bytes", async () => {
    const lines = [HEADER];
    for (let n = 1; n <= 10_000; n++) lines.push(csvRow(n));
    const file = Buffer.from(`\uFEFF${lines.join("\r\n")}\r\n`, "utf8");
    const { rows, sha256 } = await collect(chunked(file), "csv");
    expect(rows).toHaveLength(10_000);
    expect(rows[0]).toEqual({
      rowNumber: 1,
      item: {
        item_ref: "row-1",
        amount: "1.50",
        partner_transaction_id: "ptx-1",
        expected_name: 'Silva, Ana "Nina" 1',
        customer_id: "cus_1",
        country_code: "BO",
        payment_method: "bank_transfer",
        payment_destination: "1000001",
        recipient: { name_first: "Ana" },
      },
    });
    expect(rows[9_999]?.rowNumber).toBe(10_000);
    expect(rows[9_999]?.item.item_ref).toBe("row-10000");
    expect(sha256).toBe(createHash("sha256").update(file).digest("hex"));
  });

  it("refuses row 10,001 with 413 BATCH_TOO_LARGE and stops reading the source there", async () => {
    let produced = 0;
    const source = Readable.from(
      (function* () {
        yield `${HEADER}\n`;
        // Far more rows than allowed; a reader that buffered the rest would pull them all.
        for (let n = 1; n <= 100_000; n++) {
          produced++;
          yield `${csvRow(n)}\n`;
        }
      })(),
    );
    const error = await refusal(collect(source, "csv"));
    expect(error.status).toBe(413);
    expect(error.code).toBe("BATCH_TOO_LARGE");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(produced).toBeGreaterThan(10_000);
    expect(produced).toBeLessThan(12_000);
  });

  it("refuses the byte past the cap with BATCH_TOO_LARGE", async () => {
    const file = Buffer.from(`${HEADER}\n${csvRow(1)}\n${csvRow(2)}\n`);
    const error = await refusal(
      collect(chunked(file, 10), "csv", { maxRows: 10, maxBytes: file.length - 1 }),
    );
    expect(error.code).toBe("BATCH_TOO_LARGE");
  });

  it("reads NDJSON: one object a line, blank lines skipped, 10,000 rows", async () => {
    const lines: string[] = [];
    for (let n = 1; n <= 10_000; n++) {
      lines.push(JSON.stringify({ item_ref: `row-${n}`, amount: n, recipient: { name_first: "Ana, B" } }));
    }
    const file = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`);
    const { rows, sha256 } = await collect(chunked(file, 1000), "ndjson");
    expect(rows).toHaveLength(10_000);
    expect(rows[41]).toEqual({
      rowNumber: 42,
      item: { item_ref: "row-42", amount: 42, recipient: { name_first: "Ana, B" } },
    });
    expect(sha256).toBe(createHash("sha256").update(file).digest("hex"));
    const over = `${lines.join("\n")}\n{"item_ref":"one-too-many"}\n`;
    expect((await refusal(collect(chunked(Buffer.from(over)), "ndjson"))).code).toBe("BATCH_TOO_LARGE");
  });

  it("names the row of a line that is not JSON, an unknown column, malformed CSV and a NUL", async () => {
    const notJson = await refusal(collect(chunked(Buffer.from('{"item_ref":"a"}\n{nope\n')), "ndjson"));
    expect([notJson.code, notJson.field]).toEqual(["INVALID_FIELD", "rows[2]"]);
    const column = await refusal(collect(chunked(Buffer.from("item_ref,amout\na,1\n")), "csv"));
    expect([column.code, column.field]).toEqual(["INVALID_FIELD", "header"]);
    expect(column.message).toContain('"amout"');
    const ragged = await refusal(collect(chunked(Buffer.from("item_ref,amount\na,1,2\n")), "csv"));
    expect([ragged.code, ragged.field]).toEqual(["INVALID_FIELD", "file"]);
    const nul = await refusal(collect(chunked(Buffer.from("item_ref,amount\na,1\nb\u0000,2\n")), "csv"));
    expect([nul.code, nul.field]).toEqual(["INVALID_FIELD", "rows[2].item_ref"]);
  });
});
