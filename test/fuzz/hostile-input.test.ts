import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  type Credentials,
  startTestPlatform,
  type TestPlatform,
} from "../support/test-platform.js";

/**
 * Issue 12 item 10, on real PostgreSQL (which refuses 0x00 in text): input that used to answer 500 is a
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
