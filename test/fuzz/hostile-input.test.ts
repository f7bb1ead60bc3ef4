import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawExchange } from "../support/raw-http.js";
import {
  type ApiResponse,
  type Credentials,
  startTestPlatform,
  type TestPlatform,
} from "../support/test-platform.js";

/**
 * Hostile input, on real PostgreSQL (which refuses 0x00 in text): input that used to answer 500 is a
 * 4xx with the error body, and nothing is written.
 */
let platform: TestPlatform;
let partner: Credentials & { partnerId: string };

beforeAll(async () => {
  platform = await startTestPlatform();
  partner = await platform.createPartner();
});
afterAll(() => platform.close());

const expectError = (res: ApiResponse, status: number, code: string, field?: string) => {
  expect(res.status, res.text).toBe(status);
  expect(res.json).toMatchObject({ code, request_id: res.headers.get("x-request-id") });
  if (field) expect(res.json.field).toBe(field);
};

const count = async (table: string) =>
  Number((await platform.runtime.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

describe("NUL bytes", () => {
  it("in Basic credentials: 401, as any malformed credentials", async () => {
    for (const creds of [
      { clientId: "ci_\u0000", clientSecret: "secret" },
      { clientId: partner.clientId, clientSecret: `${partner.clientSecret}\u0000` },
    ]) {
      expectError(await platform.partner(creds, "GET", "/balance"), 401, "AUTHENTICATION_REQUIRED");
    }
  });

  it.each([
    ["/transactions/tx_%00", "tx_id"],
    ["/customers/cus_%00x", "customer_id"],
  ])("in the path id of GET %s: 400 INVALID_FIELD naming it", async (path, field) => {
    expectError(await platform.partner(partner, "GET", path), 400, "INVALID_FIELD", field);
  });

  it("in an admin path id: 400 INVALID_FIELD naming it", async () => {
    expectError(
      await platform.admin("GET", "/admin/partners/ptr_%00/balance"),
      400,
      "INVALID_FIELD",
      "partner_id",
    );
  });

  it("in a query parameter: 400 INVALID_FIELD naming it", async () => {
    expectError(
      await platform.partner(partner, "GET", "/listTransactions?partner_transaction_id=a%00b"),
      400,
      "INVALID_FIELD",
      "partner_transaction_id",
    );
  });

  it("in a JSON string: 400 INVALID_FIELD naming it, and nothing is written", async () => {
    const partners = await count("gateway.partners");
    expectError(
      await platform.admin("POST", "/admin/partners", { name: "Acme\u0000" }),
      400,
      "INVALID_FIELD",
      "name",
    );
    expect(await count("gateway.partners")).toBe(partners);
  });
});

describe("unpaired surrogates in JSON strings", () => {
  it("are refused rather than stored altered (as U+FFFD)", async () => {
    const customers = await count("lookup.customers");
    const configs = await count("webhooks.configs");
    expectError(
      await platform.partner(
        partner,
        "POST",
        "/customers",
        '{"name_first":"Ana\\ud800","name_last":"Souza","country":"BR","email":"ana@example.com"}',
      ),
      400,
      "INVALID_FIELD",
      "name_first",
    );
    expectError(
      await platform.partner(partner, "POST", "/webhookConfigs", '{"url":"http://127.0.0.1:9/\\udc00"}'),
      400,
      "INVALID_FIELD",
      "url",
    );
    expect(await count("lookup.customers")).toBe(customers);
    expect(await count("webhooks.configs")).toBe(configs);
  });
});

describe("deeply nested JSON", () => {
  it("in executePayout: 400 INVALID_FIELD, and no idempotency key is taken", async () => {
    const keys = await count("ledger.idempotency_keys");
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const res = await platform.partner(partner, "POST", "/executePayout", `{"tx_id":"tx_1","x":${deep}}`, {
      "x-idempotency-key": "deep-1",
    });
    expectError(res, 400, "INVALID_FIELD");
    expect(res.json.message).toContain("nested deeper than 64 levels");
    expect(await count("ledger.idempotency_keys")).toBe(keys);
  });
});

describe("requests Node's HTTP parser refuses", () => {
  it.each([
    ["a NUL in a header", "GET /balance HTTP/1.1\r\nHost: x\r\nX-Idempotency-Key: a\u0000b\r\n\r\n", 400],
    ["a bare CR in a header", "GET /balance HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", 400],
    ["a malformed request line", "GET /balance HTTP/9\r\nHost: x\r\n\r\n", 400],
    ["headers over 16 KiB", `GET /balance HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`, 431],
  ])("%s: the error body and X-Request-Id, on both listeners", async (_name, request, status) => {
    for (const port of [platform.runtime.gateway.partnerPort, platform.runtime.gateway.adminPort]) {
      const res = await rawExchange(port, Buffer.from(request, "latin1"));
      expect(res.status, res.text).toBe(status);
      expect(res.headers["x-request-id"]).toMatch(/^req_/);
      expect(res.json).toMatchObject({ code: "INVALID_FIELD", request_id: res.headers["x-request-id"] });
    }
  });
});

describe("one answer per request", () => {
  /** Every byte the listener sent back before closing. */
  const exchange = (port: number, request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(request, "latin1"));
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    });

  it("when the HTTP parser fails after the request was answered (an invalid Transfer-Encoding)", async () => {
    for (const port of [platform.runtime.gateway.partnerPort, platform.runtime.gateway.adminPort]) {
      const sent = await exchange(
        port,
        "DELETE /nothing%ED HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
      );
      expect(sent.match(/HTTP\/1\.1 \d{3} /g), sent).toHaveLength(1);
      expect(sent).toMatch(/^HTTP\/1\.1 400 /);
    }
  });
});

describe("X-Request-Id on every answer", () => {
  it("includes the admin listener's /metrics, which writes its own response", async () => {
    const res = await fetch(`${platform.adminUrl}/metrics`, { headers: { "x-request-id": "scrape-1" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("scrape-1");
  });
});
