import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Credentials, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { createApp, putReferenceData, quotationTexts } from "./pricing-fixtures.js";

/** `POST /previewQuotations` through the real gateway, against the partner API's rules and its error table. */
let platform: TestPlatform;
let partner: { partnerId: string } & Credentials;
let usdOnly: Credentials;

const THIRTY_MINUTES_MS = 30 * 60 * 1000;

const preview = (creds: Credentials | undefined, body: unknown, query = "") =>
  platform.partner(creds, "POST", `/previewQuotations${query}`, body);

/** The exact JSON of each quotation without its expires_at, which the caller checks separately. */
const exactItems = (text: string) =>
  quotationTexts(text).map((item) => item.replace(/,"expires_at":"[^"]*"/, ""));

beforeAll(async () => {
  platform = await startTestPlatform();
  await putReferenceData(platform);
  partner = await platform.createPartner({
    supported_currencies: ["USD", "BRL", "VND", "KES", "EUR"],
    fees: { percent: "1.5", fixed_usd: "0.30" },
  });
  usdOnly = await platform.createPartner();
});

afterAll(async () => {
  await platform?.close();
});

describe("quotations", () => {
  it("prices every supported currency that has a rate, with exact figures", async () => {
    const res = await preview(partner, { amount: 100, currency: "USD" });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(exactItems(res.text)).toEqual([
      '{"amount":100.00,"currency":"USD","exchange_rate":1.0000000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30}',
      '{"amount":540.00,"currency":"BRL","exchange_rate":5.4000000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30}',
      '{"amount":2630000,"currency":"VND","exchange_rate":26300.0000000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30}',
      '{"amount":12925.00,"currency":"KES","exchange_rate":129.2500000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30}',
    ]);
  });

  it("converts from any source currency with a rate, read case-insensitively", async () => {
    const res = await preview(partner, { amount: "1000", currency: "kes" });
    expect(res.status, res.text).toBe(200);
    expect(exactItems(res.text)).toEqual([
      '{"amount":7.74,"currency":"USD","exchange_rate":1.0000000000,"amount_usd":7.74,"fee":0.42,"percentage_fee":0.12,"fixed_fee":0.30}',
      '{"amount":41.78,"currency":"BRL","exchange_rate":5.4000000000,"amount_usd":7.74,"fee":0.42,"percentage_fee":0.12,"fixed_fee":0.30}',
      '{"amount":203482,"currency":"VND","exchange_rate":26300.0000000000,"amount_usd":7.74,"fee":0.42,"percentage_fee":0.12,"fixed_fee":0.30}',
      '{"amount":1000.00,"currency":"KES","exchange_rate":129.2500000000,"amount_usd":7.74,"fee":0.42,"percentage_fee":0.12,"fixed_fee":0.30}',
    ]);
    const upper = await preview(partner, { amount: "1000", currency: "KES" });
    expect(exactItems(upper.text)).toEqual(exactItems(res.text));
  });

  it("omits targets without a rate (EUR) and targets outside their corridor's limits", async () => {
    const large = await preview(partner, { amount: 10000, currency: "USD" });
    expect(large.json.quotations.map((q: { currency: string }) => q.currency)).toEqual(["USD", "VND"]);
    const tiny = await preview(partner, { amount: "0.01", currency: "USD" });
    expect(tiny.json.quotations.map((q: { currency: string }) => q.currency)).toEqual(["USD"]);
  });

  it("quotes only USD, without fees, for a partner with no supported currencies configured", async () => {
    const res = await preview(usdOnly, { amount: 540, currency: "BRL" });
    expect(res.status, res.text).toBe(200);
    expect(exactItems(res.text)).toEqual([
      '{"amount":100.00,"currency":"USD","exchange_rate":1.0000000000,"amount_usd":100.00,"fee":0.00,"percentage_fee":0.00,"fixed_fee":0.00}',
    ]);
  });

  it("sets expires_at exactly 30 minutes after the response time, on every call", async () => {
    for (let call = 0; call < 2; call++) {
      const before = Date.now();
      const res = await preview(partner, { amount: 100, currency: "USD" });
      const after = Date.now();
      for (const quotation of res.json.quotations as { expires_at: string }[]) {
        expect(quotation.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        const expiresAt = Date.parse(quotation.expires_at);
        expect(expiresAt).toBeGreaterThanOrEqual(before + THIRTY_MINUTES_MS);
        expect(expiresAt).toBeLessThanOrEqual(after + THIRTY_MINUTES_MS);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
});

describe("dp", () => {
  // 1000 KES at 129.25 is 7.736943907156673114… USD; at 1.5 % + 0.30: percentage_fee 0.116054158607350096…,
  // fee 0.416054158607350096…. The first item is the USD target, its local amount at USD's 2 minor units.
  it.each([
    [
      "?dp=0",
      '{"amount":7.74,"currency":"USD","exchange_rate":1.0000000000,"amount_usd":8,"fee":0,"percentage_fee":0,"fixed_fee":0}',
    ],
    [
      "",
      '{"amount":7.74,"currency":"USD","exchange_rate":1.0000000000,"amount_usd":7.74,"fee":0.42,"percentage_fee":0.12,"fixed_fee":0.30}',
    ],
    [
      "?dp=2",
      '{"amount":7.74,"currency":"USD","exchange_rate":1.0000000000,"amount_usd":7.74,"fee":0.42,"percentage_fee":0.12,"fixed_fee":0.30}',
    ],
    [
      "?dp=10",
      '{"amount":7.74,"currency":"USD","exchange_rate":1.0000000000,"amount_usd":7.7369439072,"fee":0.4160541586,"percentage_fee":0.1160541586,"fixed_fee":0.3000000000}',
    ],
  ])(
    "%s rounds USD amounts and fees half-up; local amounts and the rate keep their own precision",
    async (query, item) => {
      const res = await preview(partner, { amount: 1000, currency: "KES" }, query);
      expect(res.status, res.text).toBe(200);
      expect(exactItems(res.text)[0]).toBe(item);
    },
  );

  it.each(["?dp=11", "?dp=-1", "?dp=abc", "?dp=2.5"])("refuses %s with INVALID_FIELD", async (query) => {
    const res = await preview(partner, { amount: 10, currency: "USD" }, query);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "INVALID_FIELD", field: "dp" });
  });
});

describe("errors, in the partner API's order", () => {
  it.each([
    [{ currency: "USD" }],
    [{ amount: 0, currency: "USD" }],
    [{ amount: -5, currency: "USD" }],
    [{ amount: "abc", currency: "USD" }],
    [{ amount: null, currency: "USD" }],
    [{ amount: 0 }],
  ])("answers INVALID_AMOUNT to %j before looking at the currency or the credentials", async (body) => {
    const res = await preview(undefined, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "INVALID_AMOUNT", field: "amount" });
    expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
    expect(res.headers.get("www-authenticate")).toBeNull();
  });

  it.each([
    [{ amount: 10 }],
    [{ amount: 10, currency: "" }],
    [{ amount: 10, currency: "ZZZ" }],
    [{ amount: 10, currency: 840 }],
  ])("answers MISSING_REQUIRED_FIELD to %j before the credentials", async (body) => {
    const res = await preview(undefined, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "MISSING_REQUIRED_FIELD", field: "currency" });
  });

  it("answers 401 AUTHENTICATION_REQUIRED with WWW-Authenticate to a good body without valid credentials", async () => {
    for (const creds of [undefined, { clientId: partner.clientId, clientSecret: "cs_wrong" }]) {
      const res = await preview(creds, { amount: 10, currency: "EUR" });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
    }
  });

  it("answers INVALID_CURRENCY, after authentication, when the currency has no rate", async () => {
    const res = await preview(partner, { amount: 10, currency: "eur" });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "INVALID_CURRENCY", field: "currency" });
  });

  it("answers 429 RATE_LIMIT_EXCEEDED with Retry-After once the app's limit is used, before INVALID_CURRENCY", async () => {
    const limited = await createApp(platform, partner.partnerId, 3);
    const other = await createApp(platform, partner.partnerId, 3);
    expect((await preview(limited, { amount: 10, currency: "USD" })).status).toBe(200);
    expect((await preview(limited, { amount: 10, currency: "EUR" })).status).toBe(400);
    expect((await preview(limited, { amount: 10, currency: "USD" })).status).toBe(200);
    for (const currency of ["USD", "EUR"]) {
      const res = await preview(limited, { amount: 10, currency });
      expect(res.status, res.text).toBe(429);
      expect(res.json).toMatchObject({ code: "RATE_LIMIT_EXCEEDED" });
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 20).toBe(true);
    }
    // Body checks still come first, and another app of the same partner has a bucket of its own.
    expect((await preview(limited, { amount: 0, currency: "USD" })).json.code).toBe("INVALID_AMOUNT");
    expect((await preview(other, { amount: 10, currency: "USD" })).status).toBe(200);
  });
});

describe("statelessness", () => {
  it("writes no row anywhere: no transaction, nothing that could expire against the account", async () => {
    const client = new pg.Client({ connectionString: platform.databaseUrl });
    await client.connect();
    try {
      const counts = async () => {
        const tables = await client.query<{ name: string }>(
          `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
           WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
           ORDER BY 1`,
        );
        const out: Record<string, string> = {};
        for (const { name } of tables.rows) {
          const res = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${name}`);
          out[name] = res.rows[0]!.n;
        }
        return out;
      };
      const before = await counts();
      for (let i = 0; i < 3; i++) {
        expect((await preview(partner, { amount: 100 + i, currency: "USD" })).status).toBe(200);
      }
      expect(await counts()).toEqual(before);
      expect(Object.keys(before)).toContain("pricing.fx_rates");
    } finally {
      await client.end();
    }
  });
});
