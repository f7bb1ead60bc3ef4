/**
 * @payouts/client against a started platform (real PostgreSQL, every service, the real gateway): every
 * partner route through its method, executePayout's retry with the same key after a lost answer,
 * cursor paging and typed errors.
 */
import { type ErrorCodeOf, isPayoutsError, type PayoutsClient, PayoutsError } from "@payouts/client";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { localDay } from "../support/partner-days.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  BR_PIX_DESTINATION,
  BR_SENDER,
  balanceOf,
  clientOf,
  type FundedPartner,
  fundedPartner,
  quotedTransaction,
  setUpBrazil,
} from "./support/client-fixtures.js";

const PIX_QR =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000" } });
  await setUpBrazil(platform);
});
afterAll(async () => {
  await platform?.close();
});

/** Rejection of `call` as a PayoutsError. */
async function failureOf(call: Promise<unknown>): Promise<PayoutsError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PayoutsError);
  return error as PayoutsError;
}

describe("every partner route through its method", () => {
  let partner: FundedPartner;
  let client: PayoutsClient;

  beforeAll(async () => {
    partner = await fundedPartner(platform, "100");
    client = clientOf(platform, partner);
  });

  it("customers, lookups, banks, prices, a payout, the transaction, the balance", async () => {
    const customer = await client.createCustomer(BR_SENDER);
    expect(customer.customer_id).toMatch(/^cus_/);
    expect(await client.getCustomer(customer.customer_id)).toEqual(customer);

    const lookup = await client.lookupPaymentCode({
      customer_id: customer.customer_id,
      ...BR_PIX_DESTINATION,
      partner_transaction_id: "order-1",
    });
    expect(lookup).toMatchObject({ country: "BR", currency: "BRL", partner_transaction_id: "order-1" });
    const qr = await client.decodeQr({ customer_id: customer.customer_id, qr_string: PIX_QR, amount: 250 });
    expect(qr.tx_id).toMatch(/^tx_/);
    expect((await client.listBanks({ country_code: "NG" })).banks).toContainEqual(
      expect.objectContaining({ code: "000013" }),
    );
    const preview = await client.previewQuotations({ amount: 100, currency: "USD" }, { dp: 4 });
    expect(preview.quotations.map((q) => q.currency)).toContain("BRL");

    // 54 BRL at 5.4 = 10 USD; 1.5 % + 0.30 USD.
    const quote = await client.getQuotation({ tx_id: lookup.tx_id, amount: "54" });
    expect(quote).toMatchObject({ tx_id: lookup.tx_id, amount_usd: 10, fee: 0.45, total_usd: 10.45 });
    const payout = await client.executePayout({ tx_id: lookup.tx_id });
    expect(payout).toMatchObject({ replayed: false, attempts: 1, transaction: { status: "PROCESSING" } });
    expect((await client.getTransaction(lookup.tx_id)).status_history?.map((c) => c.to)).toEqual([
      "PENDING",
      "PROCESSING",
    ]);
    expect(await client.getBalance({ dp: 2 })).toMatchObject({ balance_usd: 89.55, currency: "USD" });
  });

  it("webhook configs and the delivery log", async () => {
    const config = await client.createWebhookConfig({
      url: "http://127.0.0.1:9/receiver",
      secret: "a-secret-of-16-chars-at-least",
      active: false,
    });
    expect(config).toMatchObject({ active: false, has_secret: true, events: ["*"] });
    expect((await client.listWebhookConfigs()).webhook_configs.map((c) => c.config_id)).toEqual([
      config.config_id,
    ]);
    expect(
      await client.updateWebhookConfig(config.config_id, { events: ["transaction.failed"] }),
    ).toMatchObject({
      events: ["transaction.failed"],
    });
    const rotation = await client.rotateWebhookSecret(config.config_id, { grace_period_seconds: 0 });
    expect(rotation.secret.length).toBeGreaterThanOrEqual(16);
    expect((await failureOf(client.testWebhookConfig(config.config_id))).code).toBe(
      "WEBHOOK_CONFIG_INACTIVE",
    );
    expect(await client.listWebhookDeliveries({ config_id: config.config_id })).toEqual({ deliveries: [] });
    expect((await failureOf(client.redeliverWebhook("whd_unknown"))).code).toBe("DELIVERY_NOT_FOUND");
    await client.deleteWebhookConfig(config.config_id);
    expect((await client.listWebhookConfigs()).webhook_configs).toEqual([]);
  });
});

describe("executePayout retries with the same key", () => {
  it("replays the outcome when the first answer is lost after the platform processed it: debited once", async () => {
    const partner = await fundedPartner(platform, "100");
    const setup = clientOf(platform, partner);
    const customer = await setup.createCustomer(BR_SENDER);
    const txId = await quotedTransaction(setup, customer.customer_id);

    const sent: Request[] = [];
    let dropped = false;
    const client = clientOf(platform, partner, {
      fetch: async (request) => {
        sent.push(request.clone());
        const response = await fetch(request);
        if (!dropped && new URL(request.url).pathname === "/executePayout") {
          dropped = true;
          // The platform answered (and debited); the connection "breaks" before the caller reads it.
          await response.arrayBuffer();
          throw new TypeError("fetch failed: connection reset after the request was processed");
        }
        return response;
      },
    });
    const payout = await client.executePayout({ tx_id: txId });
    expect(payout).toMatchObject({
      attempts: 2,
      replayed: true,
      transaction: { tx_id: txId, status: "PROCESSING" },
    });
    const keys = sent.map((r) => r.headers.get("x-idempotency-key"));
    expect(keys).toEqual([payout.idempotencyKey, payout.idempotencyKey]);
    expect(await balanceOf(platform, partner.partnerId)).toBe("89.55");

    // The same key later, even from another client, still replays; a new key for the paid transaction is final.
    const again = await setup.executePayout({ tx_id: txId }, { idempotencyKey: payout.idempotencyKey });
    expect(again).toMatchObject({ replayed: true, attempts: 1 });
    const refused = await failureOf(setup.executePayout({ tx_id: txId }));
    expect(refused).toMatchObject({ status: 409, code: "TRANSACTION_NOT_PENDING" });
    expect(refused.idempotencyKey).not.toBe(payout.idempotencyKey);
    expect(await balanceOf(platform, partner.partnerId)).toBe("89.55");
  });

  it("concurrent calls with one key all answer the one payout (409 IDEMPOTENCY_KEY_IN_USE is waited out)", async () => {
    const partner = await fundedPartner(platform, "100");
    const client = clientOf(platform, partner);
    const customer = await client.createCustomer(BR_SENDER);
    const txId = await quotedTransaction(client, customer.customer_id);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        client.executePayout({ tx_id: txId }, { idempotencyKey: `same-${txId}` }),
      ),
    );
    expect(results.map((r) => r.transaction.tx_id)).toEqual([txId, txId, txId, txId]);
    expect(results.filter((r) => !r.replayed).length).toBeLessThanOrEqual(1);
    expect(await balanceOf(platform, partner.partnerId)).toBe("89.55");
  });
});

describe("paging listTransactions", () => {
  it("iterates every page by cursor, newest first, each transaction once", async () => {
    const partner = await fundedPartner(platform, "1");
    const client = clientOf(platform, partner);
    const customer = await client.createCustomer(BR_SENDER);
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      const lookup = await client.lookupPaymentCode({
        customer_id: customer.customer_id,
        ...BR_PIX_DESTINATION,
        partner_transaction_id: `page-${i}`,
      });
      created.push(lookup.tx_id);
    }
    const pages = [];
    for await (const page of client.transactionPages({ limit: 3 })) pages.push(page);
    expect(pages.map((p) => p.transactions.length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.next_cursor === null)).toEqual([false, false, true]);
    const ids = pages.flatMap((p) => p.transactions.map((t) => t.tx_id));
    expect(ids).toEqual([...created].reverse());

    const streamed = [];
    for await (const tx of client.transactions({ limit: 2, status: "PENDING" })) streamed.push(tx.tx_id);
    expect(streamed).toEqual(ids);
    // A filter and a starting cursor are kept on every page.
    const filtered = [];
    for await (const tx of client.transactions({ partner_transaction_id: "page-3" })) filtered.push(tx.tx_id);
    expect(filtered).toEqual([created[3]]);
    const rest = [];
    for await (const tx of client.transactions({ limit: 3, cursor: pages[0]!.next_cursor! }))
      rest.push(tx.tx_id);
    expect(rest).toEqual(ids.slice(3));
  });
});

describe("typed errors", () => {
  let client: PayoutsClient;
  let customerId: string;

  beforeAll(async () => {
    const partner = await fundedPartner(platform, "1");
    client = clientOf(platform, partner);
    customerId = (await client.createCustomer(BR_SENDER)).customer_id;
  });

  it("carry status, code, message, field and the request id the caller sent", async () => {
    const lookup = await client.lookupPaymentCode({ customer_id: customerId, ...BR_PIX_DESTINATION });
    // BRL has 2 minor units: a third decimal is refused, never rounded.
    const error = await failureOf(
      client.getQuotation({ tx_id: lookup.tx_id, amount: "10.123" }, { requestId: "order-42.quote" }),
    );
    expect(error).toMatchObject({
      status: 400,
      code: "INVALID_AMOUNT",
      field: "amount",
      request_id: "order-42.quote",
      name: "PayoutsError",
    });
    expect(error.message).not.toBe("");
    const missing = await failureOf(client.getTransaction("tx_unknown"));
    expect(missing).toMatchObject({ status: 404, code: "TRANSACTION_NOT_FOUND" });
    expect(missing.request_id).toMatch(/^req_/);
    const destination = await failureOf(
      client.lookupPaymentCode({
        customer_id: customerId,
        ...BR_PIX_DESTINATION,
        payment_destination: "123",
      }),
    );
    expect(destination).toMatchObject({ status: 400, field: "payment_destination" });
  });

  it("401 for wrong credentials, with the code union typed per operation", async () => {
    const stranger = clientOf(platform, { clientId: "ci_nobody", clientSecret: "cs_wrong" });
    const error = await stranger.getBalance().catch((e: unknown) => e);
    expect(isPayoutsError(error, "getBalance")).toBe(true);
    if (isPayoutsError(error, "getBalance")) {
      expectTypeOf(error.code).toEqualTypeOf<
        ErrorCodeOf<"getBalance"> | "NETWORK_ERROR" | "INVALID_RESPONSE"
      >();
      expect(error).toMatchObject({ status: 401, code: "AUTHENTICATION_REQUIRED" });
    }
  });

  it("NETWORK_ERROR when nothing answers", async () => {
    const nowhere = clientOf(
      platform,
      { clientId: "ci_x", clientSecret: "cs_x" },
      { baseUrl: "http://127.0.0.1:9" },
    );
    expect(await failureOf(nowhere.getBalance())).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
  });
});

describe("the statement feed", () => {
  it("pages the balance's lines by cursor, each once, the last balance equal to the balance", async () => {
    const partner = await fundedPartner(platform, "100");
    const client = clientOf(platform, partner);
    const customer = await client.createCustomer(BR_SENDER);
    const txId = await quotedTransaction(client, customer.customer_id);
    await client.executePayout({ tx_id: txId }, { idempotencyKey: `feed-${txId}` });
    // The feed shows an entry once every older database transaction has ended; other tests share the
    // PostgreSQL cluster, so one of theirs may hold the watermark back for a moment.
    const firstTwo = () => client.listBalanceEntries({ limit: 2 });
    await expect
      .poll(async () => (await firstTwo()).entries.map((l) => l.type), { timeout: 15_000 })
      .toEqual(["credit", "payout"]);
    const first = await firstTwo();
    expect(first.entries[1]).toMatchObject({ tx_id: txId, currency: "BRL" });
    const rest = await client.listBalanceEntries({ after: first.next_cursor ?? "" });
    expect(rest.entries.map((l) => l.type)).toEqual(["fee"]);
    expect(rest.entries[0]?.balance_usd).toBe(await balanceOf(platform, partner.partnerId));
    const error = await client.listBalanceEntries({ after: "bogus" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: "INVALID_FIELD", field: "after" });
  });
});

describe("daily statements", () => {
  it("reads today's statement and a range through their typed methods", async () => {
    const partner = await fundedPartner(platform, "25");
    const client = clientOf(platform, partner);
    // The (UTC) day of the partner's credit, whatever the hour: the feed serves it once it is visible.
    await expect
      .poll(async () => (await client.listBalanceEntries()).entries.length, { timeout: 15_000 })
      .toBe(1);
    const today = localDay((await client.listBalanceEntries()).entries[0]?.created_at ?? Number.NaN);
    expect((await client.getDailyStatement(today)).line_count).toBe(1);
    const day = await client.getDailyStatement(today);
    expect(day).toMatchObject({ date: today, status: "open", currency: "USD", closing_balance_usd: "25" });
    expect(day.lines.map((l) => [l.type, l.amount_usd])).toEqual([["credit", "25"]]);
    const range = await client.listStatements({ from: today, to: today });
    expect(range.statements.map((s) => s.sha256)).toEqual([day.sha256]);
    const error = await client.listStatements({ from: today, to: "nope" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: "INVALID_FIELD", field: "to" });

    // Files stream: the CSV's summary row carries the day's hash; camt.053 holds its closing balance.
    const text = async (body: ReadableStream<Uint8Array>) => new Response(body).text();
    const csv = await text(await client.downloadStatements({ from: today, to: today, format: "csv" }));
    const [header, summary] = csv.split("\r\n");
    expect(header?.startsWith("record_type,")).toBe(true);
    expect(summary).toContain(day.sha256);
    const camt = await text(await client.downloadDailyStatement(today, "camt053"));
    expect(camt).toMatch(/<Cd>ITBD<\/Cd>[\s\S]*<Amt Ccy="USD">25<\/Amt>/);
    const refused = await client.downloadDailyStatement("2000-13-01", "csv").catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, code: "INVALID_FIELD" });
  });
});
