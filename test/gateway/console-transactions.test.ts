/**
 * The console's transaction routes and overview on the whole platform with real PostgreSQL and
 * real Kafka: a payout executed, settled and refunded, then searched across partners, opened on its page
 * (masked destination, quote, ledger movements, status timeline, webhook deliveries with their attempts)
 * and counted on the overview.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  executePayout,
  fundedPartner,
  type Partner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "../ledger/support/payout-fixtures.js";
import { callJson } from "../support/call-json.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { startTestReceiver, type TestReceiver } from "../webhooks/support/test-receiver.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read in assertions
type Json = any;

const ACCOUNT = "0123456789";
const SECRET = "console-test-secret-0123456789";

describe("console transaction routes", () => {
  let platform: TestPlatform;
  let receiver: TestReceiver;
  let alpha: Partner;
  let beta: Partner;
  let settledTx: string;
  let pendingTx: string;
  let betaTx: string;

  const admin = (path: string) => platform.admin("GET", path);

  beforeAll(async () => {
    platform = await startTestPlatform({
      kafka: true,
      env: {
        WEBHOOK_CONSUMER_GROUP: `console-tx-${randomBytes(4).toString("hex")}`,
        WEBHOOK_RETRY_SCHEDULE_MS: "0,200",
        QUOTE_TTL_MS: "600000",
      },
    });
    await setUpCorridor(platform);
    receiver = await startTestReceiver();
    alpha = await fundedPartner(platform, "100");
    beta = await fundedPartner(platform, "50");
    const config = await platform.partner(alpha, "POST", "/webhookConfigs", {
      url: `${receiver.url}/alpha`,
      secret: SECRET,
    });
    expect(config.status, config.text).toBe(201);

    settledTx = await pendingTransaction(platform, alpha.partnerId, {
      paymentDestination: ACCOUNT,
      partnerTransactionId: "order-shared-1",
    });
    await quoted(platform, alpha, settledTx);
    expect((await executePayout(platform, alpha, settledTx, `key-${settledTx}`)).status).toBe(200);
    const settle = await platform.admin("POST", `/admin/sandbox/transactions/${settledTx}/settle`, {
      outcome: "SUCCESS",
    });
    expect(settle.status, settle.text).toBe(200);
    const refund = await platform.admin("POST", `/admin/transactions/${settledTx}/refund`, {
      reason: "customer request",
    });
    expect(refund.status, refund.text).toBe(200);
    pendingTx = await pendingTransaction(platform, alpha.partnerId, { partnerTransactionId: "order-2" });
    betaTx = await pendingTransaction(platform, beta.partnerId, { partnerTransactionId: "order-shared-1" });
    await receiver.waitFor(2, (r) => r.path.startsWith("/alpha/"), 30_000);
  });
  afterAll(async () => {
    await platform?.close();
    await receiver?.close();
  });

  describe("GET /admin/transactions", () => {
    it("searches across partners, newest first, and by every filter", async () => {
      const all = await admin("/admin/transactions");
      expect(all.status, all.text).toBe(200);
      expect(all.json.transactions.map((t: Json) => t.tx_id)).toEqual([betaTx, pendingTx, settledTx]);
      expect(all.json.next_cursor).toBeNull();
      expect(all.json.transactions[2]).toMatchObject({
        tx_id: settledTx,
        partner_id: alpha.partnerId,
        partner_transaction_id: "order-shared-1",
        status: "REFUNDED",
        country: "NG",
        currency: "NGN",
        amount: "15000",
        amount_usd: "10",
        fee: "0.45",
        total_usd: "10.45",
        payment_method: "bank_transfer",
        destination_type: "NUBAN",
      });
      expect(all.text).not.toContain(ACCOUNT);

      const ids = async (query: string) =>
        (await admin(`/admin/transactions?${query}`)).json.transactions.map((t: Json) => t.tx_id);
      expect(await ids(`partner_id=${alpha.partnerId}`)).toEqual([pendingTx, settledTx]);
      expect(await ids(`partner_id=${beta.partnerId}`)).toEqual([betaTx]);
      expect(await ids("status=refunded")).toEqual([settledTx]);
      expect(await ids("status=PENDING")).toEqual([betaTx, pendingTx]);
      expect(await ids(`tx_id=${pendingTx}`)).toEqual([pendingTx]);
      expect(await ids("partner_transaction_id=order-shared-1")).toEqual([betaTx, settledTx]);
      expect(await ids("country=ng&currency=NGN")).toEqual([betaTx, pendingTx, settledTx]);
      expect(await ids("country=BR")).toEqual([]);
      expect(await ids("created_from=2000-01-01&created_to=2000-01-02")).toEqual([]);
      const now = new Date(Date.now() + 60_000).toISOString();
      expect(await ids(`created_from=2000-01-01T00:00:00Z&created_to=${now}`)).toHaveLength(3);
    });

    it("pages with the cursor, every transaction once", async () => {
      const seen: string[] = [];
      let cursor: string | null = "";
      for (let page = 0; cursor !== null && page < 10; page++) {
        const res: Json = await admin(`/admin/transactions?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
        expect(res.status, res.text).toBe(200);
        expect(res.json.transactions).toHaveLength(1);
        seen.push(res.json.transactions[0].tx_id);
        cursor = res.json.next_cursor;
      }
      expect(seen).toEqual([betaTx, pendingTx, settledTx]);
    });

    it.each([
      ["status=DONE", "status"],
      ["country=Nigeria", "country"],
      ["currency=NAIRA", "currency"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=ten", "limit"],
      ["cursor=not-a-cursor", "cursor"],
      ["created_from=yesterday", "created_from"],
      ["created_from=2026-02-01&created_to=2026-01-01", "created_from"],
      ["tx_id=tx%20with%20spaces", "tx_id"],
      ["status=PENDING&status=SUCCESS", "status"],
      ["sort=asc", "sort"],
      // An empty filter is an error, not "no filter": it would list every partner's transactions.
      ["partner_id=", "partner_id"],
      ["status=", "status"],
      ["tx_id=", "tx_id"],
      ["partner_transaction_id=", "partner_transaction_id"],
      ["created_from=", "created_from"],
      ["cursor=", "cursor"],
    ])("refuses %s as 400 INVALID_FIELD naming %s", async (query, field) => {
      const res = await admin(`/admin/transactions?${query}`);
      expect([res.status, res.json.code, res.json.field], res.text).toEqual([400, "INVALID_FIELD", field]);
      expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
    });
  });

  describe("GET /admin/transactions/{tx_id}", () => {
    it("shows the masked destination, the quote, the ledger, the timeline and every delivery attempt", async () => {
      let page: Json;
      // The dispatcher records the receiver's answer just after it arrives.
      for (let i = 0; i < 300; i++) {
        page = await admin(`/admin/transactions/${settledTx}`);
        const statuses = page.json.webhook_deliveries?.map((d: Json) => d.status) ?? [];
        if (statuses.length === 2 && statuses.every((s: string) => s === "delivered")) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(page.status, page.text).toBe(200);
      const tx = page.json;
      expect(page.text).not.toContain(ACCOUNT);
      expect(page.text).not.toContain(SECRET);
      expect(tx).toMatchObject({
        tx_id: settledTx,
        partner_id: alpha.partnerId,
        status: "REFUNDED",
        customer_id: "cus_test",
        refund_reason: "customer request",
        destination: {
          country: "NG",
          payment_method: "bank_transfer",
          destination_type: "NUBAN",
          payment_destination: "******6789",
          payment_destination_code: "058",
          institution_name: "Guaranty Trust Bank",
          recipient: { account_no: "******6789", bank_no: "058", name_first: "Ada", name_last: "Obi" },
          sender: { name_first: "Sam", name_last: "Sender", country: "US" },
        },
        quote: {
          amount: "15000",
          currency: "NGN",
          exchange_rate: "1500",
          amount_usd: "10",
          percentage_fee: "0.15",
          fixed_fee: "0.3",
          fee: "0.45",
          total_usd: "10.45",
        },
      });
      expect(tx.quote.expires_at).toMatch(/Z$/);
      expect(tx.status_history.map((h: Json) => [h.from, h.to])).toEqual([
        [null, "PENDING"],
        ["PENDING", "PROCESSING"],
        ["PROCESSING", "SUCCESS"],
        ["SUCCESS", "REFUNDED"],
      ]);
      const times = tx.status_history.map((h: Json) => Date.parse(h.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));

      expect(tx.ledger_movements.map((m: Json) => m.kind)).toEqual(["payout", "settlement", "refund"]);
      for (const movement of tx.ledger_movements) {
        const sum = movement.lines.reduce((s: number, l: Json) => s + Number(l.amount_usd), 0);
        expect(Math.abs(sum), movement.kind).toBeLessThan(1e-9);
      }
      expect(tx.ledger_movements[0].lines).toEqual(
        expect.arrayContaining([
          { account: "balance", amount_usd: "-10.45" },
          { account: "in_flight", amount_usd: "10.45" },
        ]),
      );

      expect(tx.webhook_deliveries.map((d: Json) => [d.event_type, d.status])).toEqual([
        ["transaction.refunded", "delivered"],
        ["transaction.success", "delivered"],
      ]);
      for (const delivery of tx.webhook_deliveries) {
        expect(delivery.partner_id).toBe(alpha.partnerId);
        expect(delivery.attempts).toHaveLength(1);
        expect(delivery.attempts[0]).toMatchObject({ attempt: 1, status_code: 200, error: null });
        expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
        expect(Date.parse(delivery.attempts[0].attempted_at)).toBeGreaterThan(0);
      }
    });

    it("answers 404 TRANSACTION_NOT_FOUND for an unknown id and refuses query parameters", async () => {
      const missing = await admin("/admin/transactions/tx_0000000000nothing");
      expect([missing.status, missing.json.code]).toEqual([404, "TRANSACTION_NOT_FOUND"]);
      const extra = await admin(`/admin/transactions/${pendingTx}?dp=2`);
      expect([extra.status, extra.json.field]).toEqual([400, "dp"]);
    });

    it("shows a PENDING transaction without quote, movements or deliveries", async () => {
      const res = await admin(`/admin/transactions/${pendingTx}`);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        status: "PENDING",
        quote: null,
        amount: null,
        ledger_movements: [],
        webhook_deliveries: [],
      });
      expect(res.json.status_history).toHaveLength(1);
    });
  });

  describe("GET /admin/overview", () => {
    it("counts the payouts of the last hour and day by corridor and status, balances, outbox and webhooks", async () => {
      const res = await admin("/admin/overview");
      expect(res.status, res.text).toBe(200);
      const o = res.json;
      for (const window of [o.payouts.last_hour, o.payouts.last_day]) {
        expect(window.total).toBe(3);
        expect(window.by_corridor).toEqual([
          { country: "NG", currency: "NGN", status: "PENDING", count: 2, amount: "0", debited_usd: "0" },
          {
            country: "NG",
            currency: "NGN",
            status: "REFUNDED",
            count: 1,
            amount: "15000",
            debited_usd: "10.45",
          },
        ]);
      }
      expect(Date.parse(o.payouts.last_day.since)).toBeLessThan(Date.parse(o.payouts.last_hour.since));
      expect(Date.parse(o.as_of) - Date.parse(o.payouts.last_hour.since)).toBe(3_600_000);
      // 100 + 50 credited; the refund returned the whole debit.
      expect(o.balances).toEqual({ total_usd: "150", in_flight_usd: "0", partners: 2 });
      expect(o.outbox.unpublished).toBeGreaterThanOrEqual(0);
      expect(o.outbox.oldest_age_ms).toBeGreaterThanOrEqual(0);
      expect(o.webhooks).toMatchObject({ dead: 0, delivering: 0 });
      expect(o.webhooks.delivered_last_hour).toBe(o.webhooks.delivered_last_day);
      expect(o.webhooks.delivered_last_hour + o.webhooks.pending).toBe(2);
    });

    it("refuses query parameters", async () => {
      const res = await admin("/admin/overview?window=1h");
      expect([res.status, res.json.code, res.json.field]).toEqual([400, "INVALID_FIELD", "window"]);
    });
  });

  it("answers none of these routes without the admin token, or with a wrong one", async () => {
    for (const path of ["/admin/transactions", `/admin/transactions/${settledTx}`, "/admin/overview"]) {
      for (const headers of [{}, { authorization: "Bearer wrong-token" }]) {
        const res = await callJson(`${platform.adminUrl}${path}`, "GET", headers);
        expect([res.status, res.json.code], path).toEqual([401, "AUTHENTICATION_REQUIRED"]);
        expect(res.text).not.toContain(settledTx);
      }
    }
  });
});
