/**
 * The partner API's contract walked statement by statement, in its order, through the real gateway of one
 * platform on real PostgreSQL; then the partner API's conventions and the admin API. Each `describe` is
 * named after the part of the contract whose statements it proves.
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { SANDBOX_QR_PAYLOADS } from "@payouts/lookup/testdata/sandbox-qr-samples";
import { Dec } from "@payouts/platform/money/decimal";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupPartner,
  type LookupPartner,
  memberText,
  putPricingData,
  SENDER_MAP,
  transactionCount,
} from "../lookup/lookup-fixtures.js";
import type { ApiResponse, Credentials, TestPlatform } from "../support/test-platform.js";
import { startTestPlatform } from "../support/test-platform.js";
import {
  jsonOf,
  type ReceivedRequest,
  startTestReceiver,
  type TestReceiver,
} from "../webhooks/support/test-receiver.js";

const APP_VERSION: string = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).version;
const WEBHOOK_SECRET = "conformance-webhook-secret-0123";
const THIRTY_MINUTES_MS = 30 * 60 * 1000;

let platform: TestPlatform;
let receiver: TestReceiver;
/** Fees 1.5 % + 0.30 USD; supports a currency (EUR) that has no FX rate. */
let partner: LookupPartner;
/** Fees too small to show at 2 dp: 0.01 % + 0.004 USD. */
let subCent: LookupPartner;
/** No fees, no supported currencies. */
let plain: LookupPartner;

beforeAll(async () => {
  platform = await startTestPlatform();
  await putPricingData(platform);
  receiver = await startTestReceiver((request) =>
    request.path.endsWith("/refunded")
      ? { status: 200, body: '{"received":true,"message":"refund booked"}' }
      : { status: 200, body: "{}" },
  );
  partner = await createLookupPartner(platform, {
    fees: { percent: "1.5", fixed_usd: "0.30" },
    supported_currencies: ["USD", "BRL", "NGN", "KES", "VND", "ARS", "EUR"],
  });
  subCent = await createLookupPartner(platform, {
    fees: { percent: "0.01", fixed_usd: "0.004" },
    supported_currencies: ["BRL"],
  });
  plain = await createLookupPartner(platform);
  for (const p of [partner, subCent]) {
    const credit = await platform.admin(
      "POST",
      `/admin/partners/${p.partnerId}/balance/credits`,
      { amount_usd: "100", reference: "conformance funding" },
      { "X-Idempotency-Key": `fund-${p.partnerId}` },
    );
    expect(credit.status, credit.text).toBe(201);
  }
});

afterAll(async () => {
  await platform?.close();
  await receiver?.close();
});

const BR_CPF = {
  country_code: "BR",
  payment_method: "payment_key",
  payment_destination: "52998224725",
  payment_destination_code: "PIX",
} as const;
const NG_NUBAN = {
  country_code: "NG",
  payment_method: "bank_transfer",
  payment_destination: "0000000018",
  payment_destination_code: "058",
} as const;
const BO_ACCOUNT = {
  country_code: "BO",
  payment_method: "bank_transfer",
  payment_destination: "4012345678",
  payment_destination_code: "1",
  account_type: "SAVINGS",
  recipient: { name_first: "Juan", name_last: "Mamani", ic_number: "1234567 LP" },
} as const;

const lookup = (p: LookupPartner, body: Record<string, unknown>, query = "") =>
  platform.partner(p, "POST", `/lookupPaymentCode${query}`, { customer_id: p.customerId, ...body });
const preview = (creds: Credentials | undefined, body: unknown, query = "") =>
  platform.partner(creds, "POST", `/previewQuotations${query}`, body);
const errorOf = (res: ApiResponse) => ({ status: res.status, code: res.json?.code, field: res.json?.field });

async function okLookup(p: LookupPartner, body: Record<string, unknown>, query = ""): Promise<ApiResponse> {
  const res = await lookup(p, body, query);
  expect(res.status, res.text).toBe(200);
  return res;
}

/** lookup → getQuotation → executePayout; returns the tx_id of the PROCESSING transaction. */
async function payOut(p: LookupPartner, amount: number): Promise<string> {
  const txId: string = (await okLookup(p, BR_CPF)).json.tx_id;
  const quote = await platform.partner(p, "POST", "/getQuotation", { tx_id: txId, amount });
  expect(quote.status, quote.text).toBe(200);
  const paid = await platform.partner(
    p,
    "POST",
    "/executePayout",
    { tx_id: txId },
    { "x-idempotency-key": `pay-${txId}` },
  );
  expect(paid.status, paid.text).toBe(200);
  return txId;
}

async function settle(txId: string): Promise<void> {
  const res = await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
    outcome: "SUCCESS",
  });
  expect(res.status, res.text).toBe(200);
  expect(res.json.status).toBe("SUCCESS");
}

async function balanceOf(p: LookupPartner): Promise<Dec> {
  const res = await platform.admin("GET", `/admin/partners/${p.partnerId}/balance`);
  expect(res.status, res.text).toBe(200);
  expect(typeof res.json.balance_usd).toBe("string");
  return new Dec(res.json.balance_usd);
}

/** The lookup result's fields and their JSON types. */
const LOOKUP_RESULT_TYPES: Readonly<Record<string, string>> = {
  is_dynamic: "boolean",
  is_business: "boolean",
  amount: "number",
  merchant: "string",
  merchant_id: "string",
  merchant_name: "string",
  payment_type: "string",
  merchant_info: "object",
  country: "string",
  tx_id: "string",
  currency: "string",
  partner_transaction_id: "string",
  amount_usd: "number",
  fee: "number",
  percentage_fee: "number",
  fixed_fee: "number",
  missing_fields: "array",
  suggested_values: "object",
  sender: "object",
  recipient: "object",
};

function expectLookupResultShape(body: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(body)) {
    expect(LOOKUP_RESULT_TYPES, `unexpected lookup result field ${key}`).toHaveProperty(key);
    const type = Array.isArray(value) ? "array" : typeof value;
    expect(type, key).toBe(LOOKUP_RESULT_TYPES[key]);
  }
}

/** Decimal places of one top-level JSON number member of a raw body. */
function decimalsOf(text: string, key: string): number {
  const raw = memberText(text, key);
  if (raw === undefined) throw new Error(`no ${key} in ${text}`);
  return raw.includes(".") ? raw.length - raw.indexOf(".") - 1 : 0;
}

describe("partner API: what the service does", () => {
  it("payout flow: lookupPaymentCode → getQuotation with the tx_id and the amount → executePayout with a fresh X-Idempotency-Key", async () => {
    const looked = await okLookup(partner, BR_CPF);
    const txId = looked.json.tx_id;
    expect(looked.json.amount).toBe(0);
    const quote = await platform.partner(partner, "POST", "/getQuotation", { tx_id: txId, amount: 100 });
    expect(quote.status, quote.text).toBe(200);
    expect(quote.json).toMatchObject({ tx_id: txId, amount: 100, currency: "BRL" });

    const noKey = await platform.partner(partner, "POST", "/executePayout", { tx_id: txId });
    expect(errorOf(noKey)).toMatchObject({ status: 400, code: "MISSING_IDEMPOTENCY_KEY" });
    const headers = { "x-idempotency-key": "conformance-flow-1" };
    const paid = await platform.partner(partner, "POST", "/executePayout", { tx_id: txId }, headers);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json).toMatchObject({ tx_id: txId, status: "PROCESSING" });
    const replay = await platform.partner(partner, "POST", "/executePayout", { tx_id: txId }, headers);
    expect(replay.status).toBe(200);
    expect(replay.json).toEqual(paid.json);
  });

  it("previewQuotations creates no transaction", async () => {
    const before = await transactionCount(platform, partner);
    const res = await preview(partner, { amount: 10, currency: "USD" });
    expect(res.status, res.text).toBe(200);
    expect(await transactionCount(platform, partner)).toBe(before);
  });

  it("scanned EMV QR strings go to decodeQr, not lookupPaymentCode; decodeQr answers the lookup shape", async () => {
    const refused = await lookup(partner, { ...BR_CPF, payment_destination: SANDBOX_QR_PAYLOADS.PIX });
    expect(errorOf(refused)).toEqual({ status: 400, code: "USE_DECODE_QR", field: "payment_destination" });
    const decoded = await platform.partner(partner, "POST", "/decodeQr", {
      customer_id: partner.customerId,
      qr_string: SANDBOX_QR_PAYLOADS.PIX,
    });
    expect(decoded.status, decoded.text).toBe(200);
    expectLookupResultShape(decoded.json);
    expect(decoded.json).toMatchObject({ country: "BR", currency: "BRL", amount: 150 });
  });

  it("sender identity comes from the registered customer; a sender is never accepted on a lookup request", async () => {
    const refused = await lookup(partner, { ...BR_CPF, sender: { name_first: "Mallory" } });
    expect(errorOf(refused)).toEqual({ status: 400, code: "SENDER_NOT_ACCEPTED", field: "sender" });
    const empty = await lookup(partner, { ...BR_CPF, sender: {} });
    expect(errorOf(empty).code).toBe("SENDER_NOT_ACCEPTED");
    expect((await okLookup(partner, BR_CPF)).json.sender).toEqual(SENDER_MAP);
  });
});

describe("partner API: resources and their fields", () => {
  it("Transaction: tx_id, status, amount, amount_usd, fees, qr_data with sender and recipient", async () => {
    const txId = (await okLookup(partner, { ...BR_CPF, amount: 54 })).json.tx_id;
    const tx = await platform.partner(partner, "GET", `/transactions/${txId}`);
    expect(tx.status, tx.text).toBe(200);
    expect(tx.json).toMatchObject({ tx_id: txId, status: "PENDING", amount: 54, amount_usd: 10 });
    for (const key of ["amount", "amount_usd", "fee", "percentage_fee", "fixed_fee"]) {
      expect(typeof tx.json[key], key).toBe("number");
    }
    expect(tx.json.qr_data.sender).toEqual(SENDER_MAP);
    expect(tx.json.qr_data.recipient).toMatchObject({ account_no: "52998224725" });
  });

  it("Transaction: at full precision amount_usd + percentage_fee + fixed_fee is the amount deducted from the balance", async () => {
    const before = await balanceOf(subCent);
    const txId = await payOut(subCent, 10);
    const debit = before.minus(await balanceOf(subCent));

    const at2 = (await platform.partner(subCent, "GET", `/transactions/${txId}`)).json;
    const at10 = (await platform.partner(subCent, "GET", `/transactions/${txId}?dp=10`)).json;
    const shown2 = new Dec(at2.amount_usd).plus(at2.percentage_fee).plus(at2.fixed_fee);
    const shown10 = new Dec(String(at10.amount_usd))
      .plus(String(at10.percentage_fee))
      .plus(String(at10.fixed_fee));
    expect(debit.eq(shown2), "the debit is not the 2 dp rendering").toBe(false);
    expect(debit.minus(shown10).abs().lte("0.0000000003")).toBe(true);

    await settle(txId);
    const refund = await platform.admin("POST", `/admin/transactions/${txId}/refund`, {});
    expect(refund.status, refund.text).toBe(200);
    // The admin answer carries the stored figures at full precision.
    expect(new Dec(refund.json.amount_usd).plus(refund.json.fee).eq(debit)).toBe(true);
    expect(new Dec(refund.json.total_usd).eq(debit)).toBe(true);
    expect((await balanceOf(subCent)).eq(before)).toBe(true);
  });

  it("Lookup result: field types; amount_usd and fees present only when the amount is greater than 0; partner_transaction_id echoed or empty", async () => {
    const bare = (await okLookup(partner, BR_CPF)).json;
    expectLookupResultShape(bare);
    expect(bare.partner_transaction_id).toBe("");
    expect(bare.merchant).toBe("");
    for (const key of ["amount_usd", "fee", "percentage_fee", "fixed_fee"])
      expect(bare).not.toHaveProperty(key);

    const priced = (await okLookup(partner, { ...BR_CPF, amount: 54, partner_transaction_id: "order-77" }))
      .json;
    expectLookupResultShape(priced);
    expect(priced).toMatchObject({
      partner_transaction_id: "order-77",
      amount: 54,
      amount_usd: 10,
      percentage_fee: 0.15,
      fixed_fee: 0.3,
      fee: 0.45,
      missing_fields: [],
    });
    for (const item of bare.missing_fields) {
      expect(item).toEqual({
        field: expect.any(String),
        type: expect.any(String),
        label: expect.any(String),
      });
    }
  });

  it("Quotation item: amount, currency, exchange_rate, amount_usd, fees, expires_at", async () => {
    const res = await preview(partner, { amount: 54, currency: "BRL" });
    expect(res.status, res.text).toBe(200);
    const brl = res.json.quotations.find((q: { currency: string }) => q.currency === "BRL");
    expect(brl).toEqual({
      amount: 54,
      currency: "BRL",
      exchange_rate: 5.4,
      amount_usd: 10,
      fee: 0.45,
      percentage_fee: 0.15,
      fixed_fee: 0.3,
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });
  });
});

describe("partner API: states and transitions, outbound notifications, events, versioning", () => {
  let txId: string;
  const configs: Record<string, string> = {};
  const at = (name: string, kind: "success" | "refunded") => (r: ReceivedRequest) =>
    r.path === `/${name}/webhooks/transactions/${kind}`;

  beforeAll(async () => {
    const bodies: Record<string, Record<string, unknown>> = {
      signed: { events: ["*"], secret: WEBHOOK_SECRET, basic_auth: { username: "hook", password: "pw-1" } },
      unsigned: { events: ["transaction.success"] },
      inactive: { events: ["*"], active: false },
    };
    for (const [name, body] of Object.entries(bodies)) {
      const res = await platform.partner(partner, "POST", "/webhookConfigs", {
        url: `${receiver.url}/${name}`,
        ...body,
      });
      expect(res.status, res.text).toBe(201);
      configs[name] = res.json.config_id;
    }
  });

  it("lookup creates PENDING; provider success → SUCCESS and transaction.success to every matching active config", async () => {
    txId = await payOut(partner, 54);
    await settle(txId);
    const [signed] = await receiver.waitFor(1, at("signed", "success"));
    const [unsigned] = await receiver.waitFor(1, at("unsigned", "success"));
    const tx = await platform.partner(partner, "GET", `/transactions/${txId}`);
    expect(tx.json.status).toBe("SUCCESS");

    for (const request of [signed, unsigned]) {
      expect(request?.method).toBe("POST");
      expect(request?.headers["content-type"]).toBe("application/json");
      expect(request?.headers["user-agent"]).toBe(`SERVICE-Webhook/${APP_VERSION}`);
      expect(jsonOf(request as ReceivedRequest)).toMatchObject({
        tx_id: txId,
        status: "SUCCESS",
        amount: 54,
        fee: 0.45,
        percentage_fee: 0.15,
        fixed_fee: 0.3,
        sender: SENDER_MAP,
        recipient: expect.objectContaining({ account_no: "52998224725", country: "BR" }),
      });
    }
    // Fees formatted for output: exactly two decimals in the raw bytes.
    expect(signed?.rawBody.toString()).toContain('"fixed_fee":0.30');
    expect(receiver.requests.filter((r) => r.path.startsWith("/inactive/"))).toEqual([]);
  });

  it("X-SERVICE-Signature = base64(HMAC-SHA256(secret, raw body)) only when a secret is set; Authorization Basic", async () => {
    const [signed] = await receiver.waitFor(1, at("signed", "success"));
    const [unsigned] = await receiver.waitFor(1, at("unsigned", "success"));
    const raw = (signed as ReceivedRequest).rawBody;
    expect(signed?.headers["x-service-signature"]).toBe(
      createHmac("sha256", WEBHOOK_SECRET).update(raw).digest("base64"),
    );
    expect(signed?.headers.authorization).toBe(`Basic ${Buffer.from("hook:pw-1").toString("base64")}`);
    expect(unsigned?.headers).not.toHaveProperty("x-service-signature");
    expect(unsigned?.headers).not.toHaveProperty("authorization");
  });

  it("SUCCESS → REFUNDED by an admin: ledger credit; transaction.refunded with refund_reason when one was given", async () => {
    const before = await balanceOf(partner);
    const refund = await platform.admin("POST", `/admin/transactions/${txId}/refund`, {
      reason: "customer asked",
    });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.json.status).toBe("REFUNDED");
    expect((await balanceOf(partner)).minus(before).eq(refund.json.total_usd)).toBe(true);

    const [request] = await receiver.waitFor(1, at("signed", "refunded"));
    expect(jsonOf(request as ReceivedRequest)).toMatchObject({
      tx_id: txId,
      status: "REFUNDED",
      refund_reason: "customer asked",
    });
    // The unsigned config filters on transaction.success only.
    expect(receiver.requests.filter(at("unsigned", "refunded"))).toEqual([]);

    const again = await platform.admin("POST", `/admin/transactions/${txId}/refund`, {});
    expect(again.status).toBe(409);
  });

  it("refunded payload without refund_reason when operations gave none", async () => {
    const second = await payOut(partner, 54);
    await settle(second);
    const refund = await platform.admin("POST", `/admin/transactions/${second}/refund`, {});
    expect(refund.status, refund.text).toBe(200);
    const delivered = await receiver.waitFor(2, at("signed", "refunded"));
    const body = delivered.map(jsonOf).find((b) => b.tx_id === second);
    expect(body).toMatchObject({ status: "REFUNDED" });
    expect(body).not.toHaveProperty("refund_reason");
  });

  it("receiver answers 200 ({} for success; received and message for refunded) mark the deliveries delivered", async () => {
    const res = await platform.partner(
      partner,
      "GET",
      `/webhookDeliveries?tx_id=${txId}&config_id=${configs.signed}`,
    );
    expect(res.status, res.text).toBe(200);
    const byType = Object.fromEntries(
      res.json.deliveries.map((d: { event_type: string }) => [d.event_type, d]),
    ) as Record<string, { status: string; response_body: string }>;
    expect(byType["transaction.success"]).toMatchObject({ status: "delivered", response_body: "{}" });
    expect(byType["transaction.refunded"]?.status).toBe("delivered");
    expect(JSON.parse(byType["transaction.refunded"]?.response_body ?? "")).toEqual({
      received: true,
      message: "refund booked",
    });
  });
});

describe("partner API: endpoints — dp", () => {
  it("default 2, bounds 0 to 10 on both endpoints; anything else is 400 INVALID_FIELD", async () => {
    const lookedUp = await okLookup(partner, { ...BR_CPF, amount: 54 });
    expect(decimalsOf(lookedUp.text, "fee")).toBe(2);
    const previewed = await preview(partner, { amount: 10, currency: "USD" });
    expect(previewed.text).toContain('"fixed_fee":0.30');
    for (const dp of [0, 10]) {
      expect(decimalsOf((await okLookup(partner, { ...BR_CPF, amount: 54 }, `?dp=${dp}`)).text, "fee")).toBe(
        dp,
      );
      const item = (await preview(partner, { amount: 10, currency: "USD" }, `?dp=${dp}`)).text;
      expect(item).toMatch(dp === 0 ? /"fee":0,/ : /"fee":0\.4500000000,/);
    }
    for (const dp of ["11", "-1", "2.5", "abc", "2&dp=3"]) {
      expect(errorOf(await lookup(partner, BR_CPF, `?dp=${dp}`))).toEqual({
        status: 400,
        code: "INVALID_FIELD",
        field: "dp",
      });
      expect(errorOf(await preview(partner, { amount: 1, currency: "USD" }, `?dp=${dp}`))).toEqual({
        status: 400,
        code: "INVALID_FIELD",
        field: "dp",
      });
    }
  });

  it("with the default, sub-cent fees round to 0 while the stored values keep full precision; rounding is half-up", async () => {
    const shown = await okLookup(subCent, { ...BR_CPF, amount: 10 });
    expect(memberText(shown.text, "percentage_fee")).toBe("0.00");
    expect(memberText(shown.text, "fixed_fee")).toBe("0.00");
    expect(memberText(shown.text, "fee")).toBe("0.00");
    const precise = await okLookup(subCent, { ...BR_CPF, amount: 10 }, "?dp=4");
    expect(memberText(precise.text, "fixed_fee")).toBe("0.0040");
    expect(memberText(precise.text, "percentage_fee")).toBe("0.0002");

    const half = await preview(plain, { amount: "0.25", currency: "USD" }, "?dp=1");
    expect(memberText(half.text.replace(/^\{"quotations":\[/, ""), "amount_usd")).toBe("0.3");
  });
});

describe("partner API: POST /lookupPaymentCode", () => {
  it("the manual contract requires customer_id, country_code, payment_method, payment_destination", async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ["customer_id", { ...BR_CPF, customer_id: undefined }],
      ["country_code", { ...BR_CPF, country_code: undefined }],
      ["payment_method", { ...BR_CPF, payment_method: undefined }],
      ["payment_destination", { ...BR_CPF, payment_destination: undefined }],
    ];
    for (const [field, body] of cases) {
      const res = await platform.partner(partner, "POST", "/lookupPaymentCode", {
        customer_id: partner.customerId,
        ...body,
      });
      expect(errorOf(res), field).toEqual({ status: 400, code: "MISSING_REQUIRED_FIELD", field });
    }
  });

  it("payment_method must match the corridor (AR, BR, CO payment_key; PE ewallet; BO, NG, GH, ZM bank_transfer)", async () => {
    const wrong: Array<[string, string]> = [
      ["AR", "ewallet"],
      ["BR", "bank_transfer"],
      ["CO", "ewallet"],
      ["PE", "payment_key"],
      ["BO", "payment_key"],
      ["NG", "ewallet"],
      ["GH", "payment_key"],
      ["ZM", "ewallet"],
    ];
    for (const [country, method] of wrong) {
      const res = await lookup(partner, {
        country_code: country,
        payment_method: method,
        payment_destination: "123",
      });
      expect(errorOf(res), country).toEqual({
        status: 400,
        code: "INVALID_PAYMENT_METHOD",
        field: "payment_method",
      });
    }
  });

  it("payment_destination_code required for PE (YAPE|PLIN), BR (PIX), CO (BREB), BO, NG, GH, ZM", async () => {
    const bodies: Record<string, Record<string, unknown>> = {
      PE: { country_code: "PE", payment_method: "ewallet", payment_destination: "912345678" },
      BR: { ...BR_CPF, payment_destination_code: undefined },
      CO: { country_code: "CO", payment_method: "payment_key", payment_destination: "@tienda123" },
      BO: { ...BO_ACCOUNT, payment_destination_code: undefined },
      NG: { ...NG_NUBAN, payment_destination_code: undefined },
      GH: { country_code: "GH", payment_method: "bank_transfer", payment_destination: "0241234567" },
      ZM: { country_code: "ZM", payment_method: "bank_transfer", payment_destination: "0020756300173" },
    };
    for (const [country, body] of Object.entries(bodies)) {
      expect(errorOf(await lookup(partner, body)), country).toEqual({
        status: 400,
        code: "MISSING_REQUIRED_FIELD",
        field: "payment_destination_code",
      });
    }
    const wrongCodes: Array<[Record<string, unknown>, string]> = [
      [bodies.PE as Record<string, unknown>, "BIM"],
      [BR_CPF, "TED"],
      [bodies.CO as Record<string, unknown>, "PIX"],
    ];
    for (const [body, code] of wrongCodes) {
      expect(errorOf(await lookup(partner, { ...body, payment_destination_code: code })).code).toBe(
        "INVALID_DESTINATION_CODE",
      );
    }
    for (const code of ["YAPE", "PLIN"])
      await okLookup(partner, { ...bodies.PE, payment_destination_code: code });
  });

  it("BO bank_transfer requires account_type and recipient (name_first, name_last, ic_number)", async () => {
    expect(errorOf(await lookup(partner, { ...BO_ACCOUNT, account_type: undefined }))).toEqual({
      status: 400,
      code: "MISSING_REQUIRED_FIELD",
      field: "account_type",
    });
    expect(errorOf(await lookup(partner, { ...BO_ACCOUNT, recipient: undefined }))).toMatchObject({
      status: 400,
      code: "MISSING_REQUIRED_FIELD",
    });
    const named = (await okLookup(partner, BO_ACCOUNT)).json;
    expect(named.recipient).toMatchObject({ name_first: "Juan", name_last: "Mamani" });
  });

  it("the merchant contract requires customer_id, country_code (KE, TZ or VN) and merchant_id", async () => {
    for (const country of ["KE", "TZ", "VN"]) {
      expect(errorOf(await lookup(partner, { country_code: country })), country).toEqual({
        status: 400,
        code: "MISSING_REQUIRED_FIELD",
        field: "merchant_id",
      });
    }
    await okLookup(partner, { country_code: "KE", merchant_id: "123456" });
    await okLookup(partner, { country_code: "TZ", merchant_id: "123456" });
    await okLookup(partner, { country_code: "VN", merchant_id: "0123456789", account_reference: "970436" });
  });

  it("an invalid or unknown destination fails at lookup and creates nothing; success is 200 with a PENDING transaction", async () => {
    const before = await transactionCount(platform, partner);
    const invalid = await lookup(partner, { ...BR_CPF, payment_destination: "52998224724" });
    expect(errorOf(invalid)).toEqual({
      status: 400,
      code: "INVALID_DESTINATION",
      field: "payment_destination",
    });
    const unknown = await lookup(partner, { ...BR_CPF, payment_destination: "00000000191" });
    expect(errorOf(unknown)).toEqual({
      status: 400,
      code: "UNKNOWN_DESTINATION",
      field: "payment_destination",
    });
    const noCustomer = await lookup(partner, { ...BR_CPF, customer_id: "cus_nobody" });
    expect(errorOf(noCustomer)).toEqual({ status: 400, code: "CUSTOMER_NOT_FOUND", field: "customer_id" });
    expect(await transactionCount(platform, partner)).toBe(before);

    const created = await okLookup(partner, BR_CPF);
    const tx = await platform.partner(partner, "GET", `/transactions/${created.json.tx_id}`);
    expect(tx.json.status).toBe("PENDING");
  });

  it("qr_string is the legacy alias of payment_destination; payment_destination wins when both are sent", async () => {
    const { payment_destination, ...rest } = BR_CPF;
    const alias = await okLookup(partner, { ...rest, qr_string: payment_destination });
    expect(alias.json.recipient.account_no).toBe(payment_destination);
    const both = await okLookup(partner, { ...BR_CPF, qr_string: "not a key" });
    expect(both.json.recipient.account_no).toBe(payment_destination);
    const badAlias = await lookup(partner, { ...rest, qr_string: "52998224724" });
    expect(errorOf(badAlias)).toEqual({ status: 400, code: "INVALID_DESTINATION", field: "qr_string" });
  });

  it("partner_app_id: 1 to 64 characters from [a-zA-Z0-9_-]; currency defaults to the corridor's", async () => {
    await okLookup(partner, { ...BR_CPF, partner_app_id: "A".repeat(64) });
    await okLookup(partner, { ...BR_CPF, partner_app_id: "app_1-x" });
    for (const bad of ["", "A".repeat(65), "app.1", "app 1"]) {
      expect(errorOf(await lookup(partner, { ...BR_CPF, partner_app_id: bad })), bad).toEqual({
        status: 400,
        code: "INVALID_FIELD",
        field: "partner_app_id",
      });
    }
    expect((await okLookup(partner, BR_CPF)).json.currency).toBe("BRL");
    expect((await okLookup(partner, { ...BR_CPF, currency: "brl" })).json.currency).toBe("BRL");
  });

  it("destinations by country: one valid destination per row of the manual payment table", async () => {
    const rows: Array<[string, Record<string, unknown>]> = [
      [
        "ARS",
        { country_code: "AR", payment_method: "payment_key", payment_destination: "0110012920000091344977" },
      ],
      ["ARS", { country_code: "AR", payment_method: "payment_key", payment_destination: "mi.alias.prueba" }],
      ["BRL", BR_CPF],
      ["BRL", { ...BR_CPF, payment_destination: "+5511987654321" }],
      [
        "PEN",
        {
          country_code: "PE",
          payment_method: "ewallet",
          payment_destination: "912345678",
          payment_destination_code: "YAPE",
        },
      ],
      ["BOB", BO_ACCOUNT],
      [
        "COP",
        {
          country_code: "CO",
          payment_method: "payment_key",
          payment_destination: "@tienda123",
          payment_destination_code: "BREB",
        },
      ],
      ["NGN", NG_NUBAN],
      [
        "GHS",
        {
          country_code: "GH",
          payment_method: "bank_transfer",
          payment_destination: "0241234567",
          payment_destination_code: "MTN",
        },
      ],
      [
        "ZMW",
        {
          country_code: "ZM",
          payment_method: "bank_transfer",
          payment_destination: "0020756300173",
          payment_destination_code: "ZNCOZMLU",
        },
      ],
      [
        "KES",
        {
          country_code: "KE",
          payment_method: "payment_key",
          payment_destination: "123456",
          payment_destination_code: "TILL",
        },
      ],
      ["TZS", { country_code: "TZ", payment_method: "payment_key", payment_destination: "123456" }],
      [
        "UGX",
        {
          country_code: "UG",
          payment_method: "payment_key",
          payment_destination: "123456",
          payment_destination_code: "PAYBILL",
          account_reference: "INV1",
        },
      ],
    ];
    for (const [currency, body] of rows) {
      const res = await okLookup(partner, body);
      expect(res.json.currency, JSON.stringify(body)).toBe(currency);
    }
    const phone = await lookup(partner, {
      country_code: "AR",
      payment_method: "payment_key",
      payment_destination: "+5491123456789",
    });
    expect(errorOf(phone).code).toBe("INVALID_DESTINATION");
    const zmWallet = await lookup(partner, {
      country_code: "ZM",
      payment_method: "bank_transfer",
      payment_destination: "0971234567",
      payment_destination_code: "MTN",
    });
    expect(errorOf(zmWallet).status).toBe(400);
  });

  it("response observations: manual without amount, KE, VN, NG", async () => {
    const manual = (await okLookup(partner, BR_CPF)).json;
    expect(manual.amount).toBe(0);
    expect(manual.missing_fields).toContainEqual({ field: "amount", type: "numeric", label: "Amount" });

    const ke = (await okLookup(partner, { country_code: "KE", merchant_id: "123456" })).json;
    expect(ke).toMatchObject({ is_dynamic: true, is_business: true, payment_type: "till" });
    expect(ke.merchant_info).toMatchObject({
      merchant_id: "123456",
      country_code: "KE",
      payment_type: "till",
    });
    expect(ke.merchant_info.display_name).toEqual(expect.any(String));

    const vn = (
      await okLookup(partner, { country_code: "VN", merchant_id: "0123456789", account_reference: "970436" })
    ).json;
    expect(Object.keys(vn.recipient)).toEqual(
      expect.arrayContaining(["name", "name_first", "name_last", "account_no", "bank_no"]),
    );

    const ng = (await okLookup(partner, { ...NG_NUBAN, amount: 15000 })).json;
    expect(ng.recipient).toMatchObject({ account_no: "0000000018", bank_no: expect.any(String) });
    expect(ng.amount).toBe(15000);
  });
});

describe("partner API: POST /previewQuotations", () => {
  it("one quotation per supported currency; the only target is USD when none are configured", async () => {
    const res = await preview(partner, { amount: 1, currency: "usd" });
    expect(res.status, res.text).toBe(200);
    expect(res.json.quotations.map((q: { currency: string }) => q.currency)).toEqual([
      "USD",
      "BRL",
      "NGN",
      "KES",
      "VND",
      "ARS",
    ]);
    const usdOnly = await preview(plain, { amount: 54, currency: "BRL" });
    expect(usdOnly.json.quotations).toEqual([
      expect.objectContaining({ currency: "USD", amount: 10, amount_usd: 10 }),
    ]);
  });

  it("a currency is omitted without an FX rate (EUR) or outside its corridor's limits", async () => {
    const tiny = await preview(partner, { amount: 0.01, currency: "USD" });
    expect(tiny.json.quotations.map((q: { currency: string }) => q.currency)).toEqual(["USD"]);
  });

  it("expires_at 30 minutes after the response; exchange_rate at 10 decimal places, USD fields at 2", async () => {
    const before = Date.now();
    const res = await preview(partner, { amount: 1, currency: "USD" });
    const after = Date.now();
    for (const quotation of res.json.quotations) {
      const expiresAt = Date.parse(quotation.expires_at);
      expect(expiresAt).toBeGreaterThanOrEqual(before + THIRTY_MINUTES_MS);
      expect(expiresAt).toBeLessThanOrEqual(after + THIRTY_MINUTES_MS);
    }
    for (const item of res.text.split("},{")) {
      expect(decimalsOf(item.replace(/^\{"quotations":\[/, ""), "exchange_rate")).toBe(10);
      for (const key of ["amount_usd", "fee", "percentage_fee", "fixed_fee"]) {
        expect(decimalsOf(item.replace(/^\{"quotations":\[/, ""), key), key).toBe(2);
      }
    }
    const precise = await preview(partner, { amount: 1, currency: "USD" }, "?dp=6");
    expect(memberText(precise.text.replace(/^\{"quotations":\[/, ""), "exchange_rate")).toBe("1.0000000000");
  });
});

describe("partner API: authentication and errors", () => {
  it("partner endpoints require Basic credentials: 401 AUTHENTICATION_REQUIRED otherwise", async () => {
    const id = partner.clientId;
    const headers: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${partner.clientSecret}` },
      { authorization: "Basic !!!" },
      { authorization: `Basic ${Buffer.from(`${id}:wrong-secret`).toString("base64")}` },
      { authorization: `Basic ${Buffer.from(`ci_unknown:${partner.clientSecret}`).toString("base64")}` },
    ];
    const routes: Array<[string, string, unknown]> = [
      ["POST", "/lookupPaymentCode", { customer_id: partner.customerId, ...BR_CPF }],
      ["POST", "/previewQuotations", { amount: 1, currency: "USD" }],
      ["POST", "/getQuotation", { tx_id: "tx_x", amount: 1 }],
      ["POST", "/executePayout", { tx_id: "tx_x" }],
      ["POST", "/decodeQr", { customer_id: partner.customerId, qr_string: SANDBOX_QR_PAYLOADS.PIX }],
      ["GET", "/listBanks?country_code=BO", undefined],
      ["GET", "/listTransactions", undefined],
    ];
    for (const [method, path, body] of routes) {
      for (const header of headers) {
        const res = await platform.partner(undefined, method, path, body, header);
        expect(errorOf(res), `${method} ${path} ${JSON.stringify(header)}`).toMatchObject({
          status: 401,
          code: "AUTHENTICATION_REQUIRED",
        });
        expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
      }
    }
  });

  it("previewQuotations checks in the table's order: INVALID_AMOUNT, MISSING_REQUIRED_FIELD, AUTHENTICATION_REQUIRED, RATE_LIMIT_EXCEEDED, INVALID_CURRENCY", async () => {
    expect(errorOf(await preview(undefined, { amount: 0, currency: "nope" }))).toEqual({
      status: 400,
      code: "INVALID_AMOUNT",
      field: "amount",
    });
    expect(errorOf(await preview(undefined, { amount: -1, currency: "USD" })).code).toBe("INVALID_AMOUNT");
    for (const currency of [undefined, "", "XX", "EURO"]) {
      expect(errorOf(await preview(undefined, { amount: 5, currency })), String(currency)).toEqual({
        status: 400,
        code: "MISSING_REQUIRED_FIELD",
        field: "currency",
      });
    }
    expect(errorOf(await preview(undefined, { amount: 5, currency: "EUR" })).code).toBe(
      "AUTHENTICATION_REQUIRED",
    );

    const app = await platform.admin("POST", `/admin/partners/${partner.partnerId}/apps`, {
      preview_rate_limit_per_minute: 2,
    });
    expect(app.status, app.text).toBe(201);
    const limited = { clientId: app.json.client_id, clientSecret: app.json.client_secret };
    for (let i = 0; i < 2; i++) {
      expect(errorOf(await preview(limited, { amount: 5, currency: "EUR" }))).toEqual({
        status: 400,
        code: "INVALID_CURRENCY",
        field: "currency",
      });
    }
    const limitedRes = await preview(limited, { amount: 5, currency: "EUR" });
    expect(errorOf(limitedRes)).toMatchObject({ status: 429, code: "RATE_LIMIT_EXCEEDED" });
    expect(Number(limitedRes.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(errorOf(await preview(limited, { amount: 0, currency: "EUR" })).code).toBe("INVALID_AMOUNT");
    // The limit is per app: the partner's other app is not held back.
    expect((await preview(partner, { amount: 5, currency: "USD" })).status).toBe(200);
  });
});

describe("partner API conventions", () => {
  it("error body {code, message, field?, request_id}; X-Request-Id on every response, echoed when given", async () => {
    const ok = await platform.partner(partner, "GET", "/listBanks?country_code=BO", undefined, {
      "x-request-id": "conf-req-1",
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBe("conf-req-1");

    const responses: ApiResponse[] = [
      await lookup(partner, { ...BR_CPF, payment_method: undefined }),
      await platform.partner(undefined, "GET", "/balance"),
      await platform.partner(partner, "GET", "/noSuchRoute"),
      await platform.partner(partner, "GET", "/transactions/tx_unknown"),
      await platform.partner(partner, "GET", "/transactions/%E0%A4%A"),
      await platform.partner(partner, "POST", "/previewQuotations", '{"amount":1', {}),
      await platform.partner(partner, "POST", "/previewQuotations", '{"amount":1,"currency":"USD"}', {
        "content-type": "text/plain",
      }),
    ];
    expect(responses.map((r) => r.status)).toEqual([400, 401, 404, 404, 400, 400, 415]);
    for (const res of responses) {
      const requestId = res.headers.get("x-request-id");
      expect(requestId, res.text).toEqual(expect.any(String));
      expect(res.json.request_id).toBe(requestId);
      expect(Object.keys(res.json).sort()).toEqual(
        res.json.field === undefined
          ? ["code", "message", "request_id"]
          : ["code", "field", "message", "request_id"],
      );
    }
    expect(responses[0]?.json.field).toBe("payment_method");
  });

  it("500 INTERNAL with X-Request-Id and no internals", async () => {
    const db = new pg.Client({ connectionString: platform.databaseUrl });
    await db.connect();
    try {
      await db.query("ALTER TABLE lookup.customers RENAME TO customers_hidden");
      const res = await platform.partner(partner, "GET", `/customers/${partner.customerId}`);
      expect(res.status).toBe(500);
      expect(res.json.code).toBe("INTERNAL");
      expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
      expect(res.text).not.toMatch(/customers|relation|lookup\./);
    } finally {
      await db.query("ALTER TABLE lookup.customers_hidden RENAME TO customers");
      await db.end();
    }
  });

  it("creation routes answer 201, the others 200; a bodyless POST with a JSON Content-Type is accepted", async () => {
    const customer = await platform.partner(partner, "POST", "/customers", {
      name_first: "Ana",
      name_last: "Lima",
      country: "BR",
    });
    expect(customer.status).toBe(201);
    const config = await platform.partner(partner, "POST", "/webhookConfigs", {
      url: `${receiver.url}/created`,
      events: ["*"],
    });
    expect(config.status).toBe(201);
    const test = await platform.partner(
      partner,
      "POST",
      `/webhookConfigs/${config.json.config_id}/test`,
      undefined,
      {
        "content-type": "application/json",
      },
    );
    expect(test.status, test.text).toBeLessThan(300);
    const deliveries = await platform.partner(partner, "GET", "/webhookDeliveries?status=delivered");
    const deliveryId = deliveries.json.deliveries[0]?.delivery_id;
    expect(deliveryId).toEqual(expect.any(String));
    const redeliver = await platform.partner(
      partner,
      "POST",
      `/webhookDeliveries/${deliveryId}/redeliver`,
      undefined,
      {
        "content-type": "application/json",
      },
    );
    expect(redeliver.status, redeliver.text).toBe(200);
  });

  it("money is written with exact decimals: USD at dp, local amounts at ISO minor units, exchange_rate at 10", async () => {
    const res = await okLookup(partner, { ...BR_CPF, amount: 54 });
    expect(memberText(res.text, "fixed_fee")).toBe("0.30");
    expect(memberText(res.text, "amount")).toBe("54.00");
    const vnd = await okLookup(partner, {
      country_code: "VN",
      merchant_id: "0123456789",
      account_reference: "970436",
      amount: 263000,
    });
    expect(memberText(vnd.text, "amount")).toBe("263000");
    const quote = await platform.partner(partner, "POST", "/getQuotation", {
      tx_id: res.json.tx_id,
      amount: 54,
    });
    expect(memberText(quote.text, "exchange_rate")).toBe("5.4000000000");
  });

  it("data belongs to one partner: another partner's tx_id, customer_id or config id is not found", async () => {
    const txId = (await okLookup(partner, BR_CPF)).json.tx_id;
    const configs = await platform.partner(partner, "GET", "/webhookConfigs");
    const configId = configs.json.webhook_configs[0]?.config_id;
    expect(configId).toEqual(expect.any(String));

    expect(errorOf(await platform.partner(plain, "GET", `/transactions/${txId}`))).toMatchObject({
      status: 404,
      code: "TRANSACTION_NOT_FOUND",
    });
    expect(
      errorOf(await platform.partner(plain, "POST", "/getQuotation", { tx_id: txId, amount: 54 })),
    ).toMatchObject({ status: 404, code: "TRANSACTION_NOT_FOUND" });
    expect(errorOf(await platform.partner(plain, "GET", `/customers/${partner.customerId}`))).toMatchObject({
      status: 404,
      code: "CUSTOMER_NOT_FOUND",
    });
    expect(
      errorOf(
        await platform.partner(plain, "POST", "/lookupPaymentCode", {
          ...BR_CPF,
          customer_id: partner.customerId,
        }),
      ),
    ).toMatchObject({ status: 400, code: "CUSTOMER_NOT_FOUND" });
    expect(
      errorOf(await platform.partner(plain, "PATCH", `/webhookConfigs/${configId}`, { active: false })),
    ).toMatchObject({ status: 404, code: "WEBHOOK_CONFIG_NOT_FOUND" });
  });
});

describe("admin API", () => {
  it("Bearer token required; decimals accepted as strings or numbers and returned as strings at full precision", async () => {
    const noToken = await fetch(`${platform.adminUrl}/admin/partners/${plain.partnerId}/balance`);
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(noToken.headers.get("x-request-id")).toEqual(expect.any(String));

    const patched = await platform.admin("PATCH", `/admin/partners/${plain.partnerId}`, {
      fees: { percent: 1.25 },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.fees.percent).toBe("1.25");
    const credit = await platform.admin(
      "POST",
      `/admin/partners/${plain.partnerId}/balance/credits`,
      { amount_usd: 0.1, reference: "number" },
      { "X-Idempotency-Key": "credit-number" },
    );
    expect(credit.status).toBe(201);
    const credit2 = await platform.admin(
      "POST",
      `/admin/partners/${plain.partnerId}/balance/credits`,
      { amount_usd: "0.01", reference: "string" },
      { "X-Idempotency-Key": "credit-string" },
    );
    expect(credit2.status).toBe(201);
    expect(credit2.json.balance_usd).toBe("0.11");
    const rate = await platform.admin("PUT", "/admin/fx-rates/PEN", { rate_per_usd: 3.75 });
    expect(rate.status, rate.text).toBe(200);
    expect(rate.json.rate_per_usd).toBe("3.75");
    const corridor = await platform.admin("PUT", "/admin/corridors/PE", {
      currency: "PEN",
      min_amount: 1,
      max_amount: "10000",
      enabled: true,
    });
    expect(corridor.status, corridor.text).toBe(200);
    expect(corridor.json).toMatchObject({ min_amount: "1", max_amount: "10000" });
  });

  it("refund only from SUCCESS (else 409); a revoked app stops authenticating at once", async () => {
    const pending = (await okLookup(partner, BR_CPF)).json.tx_id;
    expect((await platform.admin("POST", `/admin/transactions/${pending}/refund`, {})).status).toBe(409);

    const app = await platform.admin("POST", `/admin/partners/${plain.partnerId}/apps`, {});
    const creds = { clientId: app.json.client_id, clientSecret: app.json.client_secret };
    expect((await platform.partner(creds, "GET", "/balance")).status).toBe(200);
    const revoked = await platform.admin(
      "DELETE",
      `/admin/partners/${plain.partnerId}/apps/${creds.clientId}`,
    );
    expect(revoked.status).toBeLessThan(300);
    expect((await platform.partner(creds, "GET", "/balance")).status).toBe(401);
  });
});
