import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupPartner, type LookupPartner, putPricingData } from "../lookup/lookup-fixtures.js";
import { type ApiResponse, startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/**
 * JSON numbers reach the money code exactly as the partner wrote them, and an amount
 * finer than its currency's minor unit is refused with INVALID_AMOUNT naming the field.
 */
let platform: TestPlatform;
let partner: LookupPartner;

const BR_PIX = {
  country_code: "BR",
  payment_method: "payment_key",
  payment_destination: "52998224725",
  payment_destination_code: "PIX",
} as const;

/** Sends `json` verbatim: JSON.stringify would round the numbers these tests are about. */
const rawPartner = (path: string, json: string, query = "") =>
  platform.partner(partner, "POST", `${path}${query}`, json);

/** Admin balance credits carry an idempotency key. */
const key = (k: string) => ({ "X-Idempotency-Key": `money-intake-${k}` });

/** The exact text of a JSON member, so 100.10 is not read as 100.1. */
const memberText = (text: string, name: string) => new RegExp(`"${name}":(-?[0-9.]+)`).exec(text)?.[1];

function expectInvalidAmount(res: ApiResponse, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.json).toMatchObject({ code: "INVALID_AMOUNT", field });
  expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
}

async function pendingTx(): Promise<string> {
  const res = await platform.partner(partner, "POST", "/lookupPaymentCode", {
    customer_id: partner.customerId,
    ...BR_PIX,
  });
  expect(res.status, res.text).toBe(200);
  return res.json.tx_id;
}

async function transactionCount(): Promise<number> {
  const res = await platform.partner(partner, "GET", "/listTransactions?limit=100");
  return res.json.transactions.length;
}

beforeAll(async () => {
  platform = await startTestPlatform();
  await putPricingData(platform);
  partner = await createLookupPartner(platform, { supported_currencies: ["USD", "BRL", "VND"] });
});
afterAll(() => platform?.close());

describe("JSON numbers are read from the request text, not through a double", () => {
  it("quotes 9007199254740993.25 BRL exactly (a double would give 9007199254740992)", async () => {
    const corridor = await platform.admin("PUT", "/admin/corridors/BR", {
      currency: "BRL",
      min_amount: "1",
      max_amount: "100000000000000000",
    });
    expect(corridor.status, corridor.text).toBe(200);
    try {
      const txId = await pendingTx();
      const res = await rawPartner("/getQuotation", `{"tx_id":"${txId}","amount":9007199254740993.25}`);
      expect(res.status, res.text).toBe(200);
      expect(memberText(res.text, "amount")).toBe("9007199254740993.25");
      const stored = await platform.runtime.db.query<{ amount: string }>(
        "SELECT amount::text AS amount FROM ledger.transactions WHERE tx_id = $1",
        [txId],
      );
      expect(stored.rows[0]?.amount).toMatch(/^9007199254740993\.250*$/);
    } finally {
      await platform.admin("PUT", "/admin/corridors/BR", {
        currency: "BRL",
        min_amount: "1",
        max_amount: "50000",
      });
    }
  });

  it("keeps every digit of admin decimals sent as JSON numbers, and expands exponents exactly", async () => {
    const rate = await platform.admin("PUT", "/admin/fx-rates/ARS", '{"rate_per_usd":1234567.123456789012}');
    expect(rate.status, rate.text).toBe(200);
    expect(rate.json.rate_per_usd).toBe("1234567.123456789012");
    const exponent = await platform.admin("PUT", "/admin/fx-rates/ARS", '{"rate_per_usd":1.5e3}');
    expect(exponent.json.rate_per_usd).toBe("1500");
    const fees = await platform.admin(
      "PATCH",
      `/admin/partners/${partner.partnerId}`,
      '{"fees":{"percent":1.123456789012345678}}',
    );
    expect(fees.status, fees.text).toBe(200);
    expect(fees.json.fees.percent).toBe("1.123456789012345678");
    await platform.admin("PATCH", `/admin/partners/${partner.partnerId}`, { fees: { percent: "0" } });
    await platform.admin("PUT", "/admin/fx-rates/ARS", { rate_per_usd: "1000" });
  });

  it("refuses an amount whose exponent is beyond ±40 instead of quoting the double it rounds to", async () => {
    const hundred = `1${"0".repeat(50)}1e-49`; // 100.000…001: JSON.parse makes it exactly 100
    const before = await transactionCount();
    const txId = await pendingTx();
    expectInvalidAmount(
      await rawPartner("/getQuotation", `{"tx_id":"${txId}","amount":${hundred}}`),
      "amount",
    );
    expectInvalidAmount(
      await rawPartner("/previewQuotations", `{"amount":${hundred},"currency":"USD"}`),
      "amount",
    );
    const credit = await platform.admin(
      "POST",
      `/admin/partners/${partner.partnerId}/balance/credits`,
      `{"amount_usd":${hundred},"reference":"exp"}`,
      key("exponent"),
    );
    expectInvalidAmount(credit, "amount_usd");
    expect(await transactionCount()).toBe(before + 1);
  });

  it("refuses an exponent that would expand beyond any amount", async () => {
    const res = await platform.admin("PUT", "/admin/fx-rates/ARS", '{"rate_per_usd":1e999999}');
    expect(res.status, res.text).toBe(400);
    expect(res.json.field).toBe("rate_per_usd");
  });
});

describe("an amount finer than its currency's minor unit is INVALID_AMOUNT", () => {
  it("getQuotation: 100.123 BRL is refused and nothing is quoted; 100.120 BRL is 100.12", async () => {
    const txId = await pendingTx();
    expectInvalidAmount(await rawPartner("/getQuotation", `{"tx_id":"${txId}","amount":100.123}`), "amount");
    expectInvalidAmount(
      await platform.partner(partner, "POST", "/getQuotation", { tx_id: txId, amount: "100.123" }),
      "amount",
    );
    const tx = await platform.partner(partner, "GET", `/transactions/${txId}`);
    expect(tx.json.amount_usd ?? null).toBeNull();
    const ok = await rawPartner("/getQuotation", `{"tx_id":"${txId}","amount":100.120}`);
    expect(ok.status, ok.text).toBe(200);
    expect(memberText(ok.text, "amount")).toBe("100.12");
  });

  it("lookupPaymentCode: 100.123 BRL is refused before any transaction exists", async () => {
    const before = await transactionCount();
    const res = await rawPartner(
      "/lookupPaymentCode",
      JSON.stringify({ customer_id: partner.customerId, ...BR_PIX }).replace(/}$/, ',"amount":100.123}'),
    );
    expectInvalidAmount(res, "amount");
    expect(await transactionCount()).toBe(before);
  });

  it("previewQuotations: the input currency's minor units (BRL 2, USD 2, VND 0), checked before the credentials", async () => {
    for (const body of ['{"amount":100.123,"currency":"BRL"}', '{"amount":1.001,"currency":"usd"}']) {
      expectInvalidAmount(await rawPartner("/previewQuotations", body), "amount");
    }
    expectInvalidAmount(
      await platform.partner(partner, "POST", "/previewQuotations", { amount: "50000.5", currency: "VND" }),
      "amount",
    );
    const anonymous = await platform.partner(undefined, "POST", "/previewQuotations", {
      amount: "100.123",
      currency: "BRL",
    });
    expectInvalidAmount(anonymous, "amount");
    // The partner API's order: a missing currency is reported before the amount's decimals can be judged.
    const noCurrency = await platform.partner(partner, "POST", "/previewQuotations", { amount: "100.123" });
    expect(noCurrency.json).toMatchObject({ code: "MISSING_REQUIRED_FIELD", field: "currency" });
    const ok = await rawPartner("/previewQuotations", '{"amount":100.10,"currency":"BRL"}');
    expect(ok.status, ok.text).toBe(200);
  });

  it("admin credits are whole cents: 10.001 USD is refused and the balance is unchanged", async () => {
    const path = `/admin/partners/${partner.partnerId}/balance/credits`;
    const before = (await platform.admin("GET", `/admin/partners/${partner.partnerId}/balance`)).json;
    expectInvalidAmount(
      await platform.admin("POST", path, '{"amount_usd":10.001,"reference":"r"}', key("c1")),
      "amount_usd",
    );
    expectInvalidAmount(
      await platform.admin("POST", path, { amount_usd: "0.000000000000000001", reference: "r" }, key("c2")),
      "amount_usd",
    );
    expect((await platform.admin("GET", `/admin/partners/${partner.partnerId}/balance`)).json).toEqual(
      before,
    );
    const ok = await platform.admin("POST", path, '{"amount_usd":10.01,"reference":"r"}', key("c3"));
    expect(ok.status, ok.text).toBe(201);
  });

  it("corridor limits are whole minor units of the corridor currency", async () => {
    const min = await platform.admin("PUT", "/admin/corridors/BR", {
      currency: "BRL",
      min_amount: "1.001",
      max_amount: "50000",
    });
    expectInvalidAmount(min, "min_amount");
    const max = await platform.admin(
      "PUT",
      "/admin/corridors/VN",
      '{"currency":"VND","min_amount":10000,"max_amount":500000000.5}',
    );
    expectInvalidAmount(max, "max_amount");
    const list = await platform.admin("GET", "/admin/corridors");
    const br = list.json.corridors.find((c: { country_code: string }) => c.country_code === "BR");
    expect(br).toMatchObject({ min_amount: "1", max_amount: "50000" });
  });
});
