/**
 * Bulk payouts at the partner edge, on the whole platform (real PostgreSQL): the shape checks of
 * `POST /batches` and `PUT /batches/{batch_id}/items`, the streamed file upload (CSV and NDJSON, 10,000
 * rows within a memory bound, row 10,001 refused), idempotency and duplicate files, the report and
 * results.csv.
 */
import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read in assertions
type Json = any;

interface Upload {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly json: Json;
}

const CSV_HEADER =
  "item_ref,amount,partner_transaction_id,expected_name,customer_id,country_code,payment_method,payment_destination,payment_destination_code";

const csvRow = (n: number, tag = "a") =>
  `${tag}-${n},${1000 + n},${tag}-ptx-${n},"Okafor, Ada ${n}",cus_1,NG,bank_transfer,${String(n).padStart(10, "0")},058`;

function csvFile(rows: number, tag = "a"): Buffer {
  const lines = [CSV_HEADER];
  for (let n = 1; n <= rows; n++) lines.push(csvRow(n, tag));
  return Buffer.from(`\uFEFF${lines.join("\r\n")}\r\n`);
}

function ndjsonFile(rows: number, tag = "n"): Buffer {
  const lines: string[] = [];
  for (let n = 1; n <= rows; n++) {
    lines.push(
      JSON.stringify({
        item_ref: `${tag}-${n}`,
        amount: 1000 + n,
        partner_transaction_id: `${tag}-ptx-${n}`,
        customer_id: "cus_1",
        country_code: "NG",
        payment_method: "bank_transfer",
        payment_destination: String(n).padStart(10, "0"),
        payment_destination_code: "058",
      }),
    );
  }
  return Buffer.from(`${lines.join("\n")}\n`);
}

describe("bulk payouts at the partner edge", () => {
  let platform: TestPlatform;
  let partner: { partnerId: string; clientId: string; clientSecret: string };
  let port: number;

  beforeAll(async () => {
    platform = await startTestPlatform();
    partner = await platform.createPartner();
    port = Number(new URL(platform.baseUrl).port);
  });
  afterAll(async () => {
    await platform?.close();
  });

  const auth = () => `Basic ${Buffer.from(`${partner.clientId}:${partner.clientSecret}`).toString("base64")}`;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    platform.partner(partner, method, path, body, headers);

  /**
   * Sends a file with node:http and reads the answer even when the gateway answers before the whole body
   * is sent (a refusal mid-file closes the connection; the write error that may follow is expected).
   */
  function upload(
    body: Buffer | Readable,
    contentType: string,
    headers: Record<string, string> = {},
    query = "",
  ): Promise<Upload> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: `/batches/upload${query}`,
          headers: { authorization: auth(), "content-type": contentType, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString();
            let json: Json;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          });
          res.on("error", reject);
        },
      );
      req.on("error", () => {
        // EPIPE / ECONNRESET after an early answer: the response handler resolves.
      });
      if (Buffer.isBuffer(body)) req.end(body);
      else body.pipe(req);
    });
  }

  describe("shape checks, before any batch exists", () => {
    const item = (n: number, extra: Record<string, unknown> = {}) => ({
      item_ref: `r-${n}`,
      amount: "1500",
      partner_transaction_id: `p-${n}`,
      customer_id: "cus_1",
      country_code: "NG",
      payment_method: "bank_transfer",
      payment_destination: "0123456789",
      payment_destination_code: "058",
      ...extra,
    });
    const create = (body: unknown, key = `k-${Math.random()}`) =>
      call("POST", "/batches", body, { "X-Idempotency-Key": key });

    it("needs an idempotency key and items", async () => {
      const noKey = await call("POST", "/batches", { items: [item(1)] });
      expect([noKey.status, noKey.json.code]).toEqual([400, "MISSING_IDEMPOTENCY_KEY"]);
      const noItems = await create({});
      expect([noItems.status, noItems.json.code, noItems.json.field]).toEqual([
        400,
        "MISSING_REQUIRED_FIELD",
        "items",
      ]);
      const empty = await create({ items: [] });
      expect([empty.status, empty.json.code, empty.json.field]).toEqual([400, "INVALID_FIELD", "items"]);
    });

    it("names the item and field at fault", async () => {
      const amount = await create({ items: [item(1), item(2, { amount: "abc" })] });
      expect([amount.status, amount.json.code, amount.json.field]).toEqual([
        400,
        "INVALID_FIELD",
        "items[1].amount",
      ]);
      const zero = await create({ items: [item(1, { amount: 0 })] });
      expect([zero.json.code, zero.json.field]).toEqual(["INVALID_AMOUNT", "items[0].amount"]);
      const noRef = await create({ items: [item(1), item(2, { item_ref: undefined })] });
      expect([noRef.json.code, noRef.json.field]).toEqual(["MISSING_REQUIRED_FIELD", "items[1].item_ref"]);
      const sender = await create({ items: [item(1, { sender: { name: "x" } })] });
      expect([sender.json.code, sender.json.field]).toEqual(["SENDER_NOT_ACCEPTED", "items[0].sender"]);
      const twice = await create({ items: [item(1), item(1)] });
      expect([twice.status, twice.json.code, twice.json.field]).toEqual([
        400,
        "DUPLICATE_ITEM_REF",
        "items[1].item_ref",
      ]);
      const approvals = await create({ items: [item(1)], required_approvals: 3 });
      expect([approvals.json.code, approvals.json.field]).toEqual(["INVALID_FIELD", "required_approvals"]);
      const policy = await create({ items: [item(1)], name_mismatch_policy: "maybe" });
      expect([policy.json.code, policy.json.field]).toEqual(["INVALID_FIELD", "name_mismatch_policy"]);
    });

    it("refuses more than 1,000 items in one request with 413 BATCH_TOO_LARGE", async () => {
      const items = Array.from({ length: 1001 }, (_, n) => item(n));
      const res = await create({ items });
      expect([res.status, res.json.code, res.json.field]).toEqual([413, "BATCH_TOO_LARGE", "items"]);
      const put = await call("PUT", "/batches/bat_none/items", { items });
      expect([put.status, put.json.code]).toEqual([413, "BATCH_TOO_LARGE"]);
    });

    it("refuses an upload that is not CSV or NDJSON, and a row with a bad shape, naming row and field", async () => {
      const plain = await upload(Buffer.from("x"), "text/plain", { "X-Idempotency-Key": "u-plain" });
      expect(plain.status).toBe(415);
      const json = await upload(Buffer.from("{}"), "application/json", { "X-Idempotency-Key": "u-json" });
      expect([json.status, json.json.code]).toEqual([415, "INVALID_FIELD"]);
      const bad = Buffer.from(
        `${CSV_HEADER}\r\n${csvRow(1)}\r\n${csvRow(2).replace(",1002,", ",1O02,")}\r\n`,
      );
      const badRow = await upload(bad, "text/csv", { "X-Idempotency-Key": "u-bad" });
      expect([badRow.status, badRow.json.code, badRow.json.field]).toEqual([
        400,
        "INVALID_FIELD",
        "rows[2].amount",
      ]);
      const noRef = await upload(
        Buffer.from(`${CSV_HEADER}\n${csvRow(1).replace(/^a-1/, "")}\n`),
        "text/csv",
        {
          "X-Idempotency-Key": "u-noref",
        },
      );
      expect([noRef.json.code, noRef.json.field]).toEqual(["MISSING_REQUIRED_FIELD", "rows[1].item_ref"]);
      const empty = await upload(Buffer.from(`${CSV_HEADER}\r\n`), "text/csv", {
        "X-Idempotency-Key": "u-0",
      });
      expect([empty.status, empty.json.code, empty.json.field]).toEqual([400, "INVALID_FIELD", "file"]);
      // A quote opening in the middle of an unquoted field is malformed CSV, not a server error.
      const strayQuote = await upload(Buffer.from('{"a": 1}\r\n'), "text/csv", {
        "X-Idempotency-Key": "u-quote",
      });
      expect([strayQuote.status, strayQuote.json.code, strayQuote.json.field]).toEqual([
        400,
        "INVALID_FIELD",
        "file",
      ]);
      expect(strayQuote.json.message).toContain("INVALID_OPENING_QUOTE");
    });

    it("refuses row 10,001 with 413 BATCH_TOO_LARGE and closes the connection", async () => {
      const res = await upload(csvFile(10_001), "text/csv", { "X-Idempotency-Key": "u-big" });
      expect([res.status, res.json.code]).toEqual([413, "BATCH_TOO_LARGE"]);
      expect(res.headers.connection).toBe("close");
      const nd = await upload(ndjsonFile(10_001), "application/x-ndjson", { "X-Idempotency-Key": "u-bignd" });
      expect([nd.status, nd.json.code]).toEqual([413, "BATCH_TOO_LARGE"]);
    });
  });

  describe("against the ledger's BatchService", () => {
    it("takes a 10,000-row CSV (BOM, CRLF, quoted commas) with the gateway's RSS growing less than 60 MB", async () => {
      const file = csvFile(10_000, "big");
      globalThis.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 5);
      // Sent in 64 KiB pieces as a stream, as a client reading the file from disk would.
      const pieces = Readable.from(
        (function* () {
          for (let at = 0; at < file.length; at += 65_536) yield file.subarray(at, at + 65_536);
        })(),
      );
      const res = await upload(pieces, "text/csv", { "X-Idempotency-Key": "u-10k" });
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(res.status, res.text).toBe(202);
      expect(res.json).toMatchObject({ items_received: 10_000, source: "csv" });
      expect(res.json.content_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(peak - before).toBeLessThan(60 * 1024 * 1024);
      const batch = await call("GET", `/batches/${res.json.batch_id}`);
      expect(batch.status, batch.text).toBe(200);
      expect(batch.json.counts.total).toBe(10_000);
      const page = await call("GET", `/batches/${res.json.batch_id}/items?limit=2`);
      expect(page.json.items.map((i: Json) => [i.row_number, i.item_ref])).toEqual([
        [1, "big-1"],
        [2, "big-2"],
      ]);
      expect(page.json.next_cursor).toEqual(expect.any(String));
      // Cancelling drops the validation still queued; the report keeps every row.
      const cancelled = await call("POST", `/batches/${res.json.batch_id}/cancel`);
      expect([cancelled.status, cancelled.json.status]).toEqual([200, "CANCELLED"]);
      expect(cancelled.json.cancel_reason).toBe("cancelled by the partner");
    });

    it("takes the NDJSON equivalent", async () => {
      const res = await upload(ndjsonFile(10_000), "application/x-ndjson", { "X-Idempotency-Key": "u-nd" });
      expect(res.status, res.text).toBe(202);
      expect(res.json).toMatchObject({ items_received: 10_000, source: "ndjson" });
      const batch = await call("GET", `/batches/${res.json.batch_id}`);
      expect(batch.json.counts.total).toBe(10_000);
      const cancelled = await call("POST", `/batches/${res.json.batch_id}/cancel`);
      expect(cancelled.json.status).toBe("CANCELLED");
    });

    it("keeps the partner's reason for cancelling, and refuses a bad one before changing anything", async () => {
      const res = await upload(ndjsonFile(3, "why"), "application/x-ndjson", {
        "X-Idempotency-Key": "u-why",
      });
      expect(res.status, res.text).toBe(202);
      const batchId: string = res.json.batch_id;
      for (const reason of ["", "x".repeat(201), "line one\nline two", "tab\there", 42]) {
        const refused = await call("POST", `/batches/${batchId}/cancel`, { reason });
        expect([refused.status, refused.json.code, refused.json.field], JSON.stringify(reason)).toEqual([
          400,
          "INVALID_FIELD",
          "reason",
        ]);
      }
      expect((await call("GET", `/batches/${batchId}`)).json.status).not.toBe("CANCELLED");

      const reason = "payroll file had the wrong month — ".padEnd(200, "é");
      expect(reason.length).toBe(200);
      const cancelled = await call("POST", `/batches/${batchId}/cancel`, { reason });
      expect([cancelled.status, cancelled.json.status], cancelled.text).toEqual([200, "CANCELLED"]);
      expect(cancelled.json.cancel_reason).toBe(`cancelled by the partner: ${reason}`);
      // Kept with the batch: the resource and the operators' view (the console reads it) carry it.
      expect((await call("GET", `/batches/${batchId}`)).json.cancel_reason).toBe(
        `cancelled by the partner: ${reason}`,
      );
      const operators = await platform.admin("GET", `/admin/batches/${batchId}`);
      expect(operators.json.cancel_reason).toBe(`cancelled by the partner: ${reason}`);
    });

    it("replays the same bytes, refuses a changed body with 422, and names the first batch of a duplicate file", async () => {
      const file = csvFile(3, "idem");
      const first = await upload(file, "text/csv", { "X-Idempotency-Key": "u-idem" });
      expect(first.status, first.text).toBe(202);
      const again = await upload(file, "text/csv", { "X-Idempotency-Key": "u-idem" });
      expect(again.status).toBe(202);
      expect(again.text).toBe(first.text);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      const changed = await upload(csvFile(4, "idem"), "text/csv", { "X-Idempotency-Key": "u-idem" });
      expect([changed.status, changed.json.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
      const duplicate = await upload(file, "text/csv", { "X-Idempotency-Key": "u-idem-2" });
      expect([duplicate.status, duplicate.json.code]).toEqual([409, "BATCH_DUPLICATE"]);
      expect(duplicate.json.batch_id).toBe(first.json.batch_id);
      expect(duplicate.headers.link).toBe(`</batches/${first.json.batch_id}>; rel="duplicate"`);

      const items = [
        {
          item_ref: "j-1",
          amount: 1500,
          partner_transaction_id: "j-ptx-1",
          customer_id: "cus_1",
          country_code: "NG",
          payment_method: "bank_transfer",
          payment_destination: "0123456789",
          payment_destination_code: "058",
        },
      ];
      const json = await call("POST", "/batches", { items }, { "X-Idempotency-Key": "j-idem" });
      expect(json.status, json.text).toBe(202);
      expect(json.headers.get("location")).toBe(`/batches/${json.json.batch_id}`);
      const replay = await call("POST", "/batches", { items }, { "X-Idempotency-Key": "j-idem" });
      expect(replay.text).toBe(json.text);
      const reused = await call(
        "POST",
        "/batches",
        { items, required_approvals: 2 },
        { "X-Idempotency-Key": "j-idem" },
      );
      expect([reused.status, reused.json.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
    });

    it("serves the report as CSV, one row per item, and 404 for a batch that is not yours", async () => {
      const created = await upload(csvFile(5, "res"), "text/csv", { "X-Idempotency-Key": "u-res" });
      expect(created.status, created.text).toBe(202);
      const res = await fetch(`${platform.baseUrl}/batches/${created.json.batch_id}/results.csv`, {
        headers: { authorization: auth() },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      const lines = (await res.text()).trimEnd().split("\r\n");
      expect(lines[0]?.split(",").slice(0, 3)).toEqual(["row_number", "item_ref", "status"]);
      expect(lines.slice(1).map((l) => l.split(",").slice(0, 2).join(","))).toEqual([
        "1,res-1",
        "2,res-2",
        "3,res-3",
        "4,res-4",
        "5,res-5",
      ]);
      const other = await platform.createPartner();
      const foreign = await platform.partner(other, "GET", `/batches/${created.json.batch_id}`);
      expect([foreign.status, foreign.json.code]).toEqual([404, "BATCH_NOT_FOUND"]);
      const list = await call("GET", "/batches?limit=1");
      expect(list.status).toBe(200);
      expect(list.json.batches).toHaveLength(1);
    });
  });
});
