/**
 * The payout flow through the real gateway on real PostgreSQL: getQuotation → executePayout → sandbox
 * settlement → refund, with exact balances at each step, the idempotency rules of executePayout, the
 * transaction views and the admin ledger routes.
 */
import { createHmac } from "node:crypto";
import {
  railCallbackSignature,
  railCallbackTimestamp,
} from "@payouts/platform/signing/rail-callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { assertLedgerInvariants } from "./support/ledger-invariants.js";
import {
  balance,
  executePayout,
  fundedPartner,
  type Partner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "./support/payout-fixtures.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000" } });
  await setUpCorridor(platform);
});
afterAll(async () => {
  await assertLedgerInvariants(platform.runtime.db);
  await platform.close();
});

describe("the payout flow", () => {
  it("quotes, executes, settles and refunds with exact balances", async () => {
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId, { partnerTransactionId: "order-1" });

    const quote = await quoted(platform, partner, txId);
    expect(quote.text).toContain('"amount_usd":10.00');
    expect(quote.json).toMatchObject({
      tx_id: txId,
      currency: "NGN",
      amount: 15000,
      amount_usd: 10,
      percentage_fee: 0.15,
      fixed_fee: 0.3,
      fee: 0.45,
      total_usd: 10.45,
    });
    expect(quote.text).toContain('"exchange_rate":1500.0000000000');
    expect(Date.parse(quote.json.expires_at)).toBeGreaterThan(Date.now());

    const executed = await executePayout(platform, partner, txId, "key-flow-1");
    expect(executed.status).toBe(200);
    expect(executed.headers.get("idempotent-replayed")).toBeNull();
    expect(executed.json).toMatchObject({
      tx_id: txId,
      status: "PROCESSING",
      country: "NG",
      currency: "NGN",
      amount: 15000,
      amount_usd: 10,
      fee: 0.45,
      partner_transaction_id: "order-1",
      qr_data: { recipient: { account_no: "0123456789", name_first: "Ada" }, sender: { name_first: "Sam" } },
    });
    expect(await balance(platform, partner.partnerId)).toBe("89.55");
    const partnerBalance = await platform.partner(partner, "GET", "/balance?dp=4");
    expect(partnerBalance.text).toBe('{"balance_usd":89.5500,"currency":"USD"}');

    const settled = await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
      outcome: "SUCCESS",
    });
    expect(settled.status).toBe(200);
    expect(settled.json).toMatchObject({ tx_id: txId, delivered: true, status: "SUCCESS" });
    expect(await balance(platform, partner.partnerId)).toBe("89.55");

    const refund = await platform.admin("POST", `/admin/transactions/${txId}/refund`, {
      reason: "customer request",
    });
    expect(refund.status).toBe(200);
    expect(refund.json).toMatchObject({
      status: "REFUNDED",
      refund_reason: "customer request",
      total_usd: "10.45",
    });
    expect(await balance(platform, partner.partnerId)).toBe("100");
    const again = await platform.admin("POST", `/admin/transactions/${txId}/refund`, {});
    expect(again.status).toBe(409);
    expect(again.json.code).toBe("TRANSACTION_NOT_REFUNDABLE");

    const view = await platform.partner(partner, "GET", `/transactions/${txId}`);
    expect(view.status).toBe(200);
    expect(view.json.status).toBe("REFUNDED");
    expect(view.json.refund_reason).toBe("customer request");
    expect(view.json.status_history.map((c: { to: string }) => c.to)).toEqual([
      "PENDING",
      "PROCESSING",
      "SUCCESS",
      "REFUNDED",
    ]);
    expect(view.json.status_history[0].from).toBeNull();
  });

  it("renders full precision when asked with dp and debits it exactly", async () => {
    const partner = await fundedPartner(platform, "50");
    const txId = await pendingTransaction(platform, partner.partnerId);
    // 1234.56 NGN / 1500 = 0.82304 USD; 1.5 % of it = 0.0123456.
    const quote = await platform.partner(partner, "POST", "/getQuotation?dp=10", {
      tx_id: txId,
      amount: "1234.56",
    });
    expect(quote.status).toBe(200);
    expect(quote.text).toContain('"amount_usd":0.8230400000');
    expect(quote.text).toContain('"percentage_fee":0.0123456000');
    expect(quote.text).toContain('"total_usd":1.1353856000');
    expect((await executePayout(platform, partner, txId, "key-precise")).status).toBe(200);
    expect(await balance(platform, partner.partnerId)).toBe("48.8646144");
  });
});

describe("executePayout idempotency", () => {
  let partner: Partner;
  beforeAll(async () => {
    partner = await fundedPartner(platform, "1000");
  });

  it("replays the first response byte for byte with Idempotent-Replayed", async () => {
    const txId = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    const first = await executePayout(platform, partner, txId, "key-replay");
    const second = await executePayout(platform, partner, txId, "key-replay");
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.text).toBe(first.text);
    // The IETF header name and a quoted structured-field string name the same key.
    const ietf = await platform.partner(
      partner,
      "POST",
      "/executePayout",
      { tx_id: txId },
      { "Idempotency-Key": '"key-replay"' },
    );
    expect(ietf.text).toBe(first.text);
  });

  it("a reused key with another body is 422, a second key for an executed tx is 409", async () => {
    const txId = await pendingTransaction(platform, partner.partnerId);
    const otherTx = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    expect((await executePayout(platform, partner, txId, "key-reuse")).status).toBe(200);
    const reused = await executePayout(platform, partner, otherTx, "key-reuse", { body: { tx_id: otherTx } });
    expect(reused.status).toBe(422);
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
    const otherDp = await executePayout(platform, partner, txId, "key-reuse", { query: "?dp=4" });
    expect(otherDp.status).toBe(422);
    const secondKey = await executePayout(platform, partner, txId, "key-other");
    expect(secondKey.status).toBe(409);
    expect(secondKey.json.code).toBe("TRANSACTION_NOT_PENDING");
  });

  it("validates the key header before anything else", async () => {
    const txId = await pendingTransaction(platform, partner.partnerId);
    const missing = await executePayout(platform, partner, txId, undefined);
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: "MISSING_IDEMPOTENCY_KEY", field: "X-Idempotency-Key" });
    const long = await executePayout(platform, partner, txId, "k".repeat(256));
    expect(long.status).toBe(400);
    expect(long.json.code).toBe("INVALID_FIELD");
    const noBody = await platform.partner(
      partner,
      "POST",
      "/executePayout",
      {},
      { "X-Idempotency-Key": "k-empty" },
    );
    expect(noBody.status).toBe(400);
    expect(noBody.json).toMatchObject({ code: "MISSING_REQUIRED_FIELD", field: "tx_id" });
  });

  it("stores business refusals: INSUFFICIENT_FUNDS is replayed exactly, even after a top-up", async () => {
    const poor = await fundedPartner(platform, "5");
    const txId = await pendingTransaction(platform, poor.partnerId);
    await quoted(platform, poor, txId);
    const refused = await executePayout(platform, poor, txId, "key-poor");
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe("INSUFFICIENT_FUNDS");
    await platform.admin(
      "POST",
      `/admin/partners/${poor.partnerId}/balance/credits`,
      { amount_usd: 100, reference: "top-up" },
      { "X-Idempotency-Key": "top-up-poor" },
    );
    const replay = await executePayout(platform, poor, txId, "key-poor");
    expect(replay.status).toBe(409);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(refused.text);
    const fresh = await executePayout(platform, poor, txId, "key-poor-2");
    expect(fresh.status).toBe(200);
    expect(await balance(platform, poor.partnerId)).toBe("94.55");
  });

  it("QUOTE_REQUIRED, QUOTE_EXPIRED and TRANSACTION_NOT_FOUND", async () => {
    const txId = await pendingTransaction(platform, partner.partnerId);
    const unquoted = await executePayout(platform, partner, txId, "key-unquoted");
    expect([unquoted.status, unquoted.json.code]).toEqual([409, "QUOTE_REQUIRED"]);
    const stranger = await fundedPartner(platform, "0");
    const foreign = await executePayout(platform, stranger, txId, "key-foreign");
    expect([foreign.status, foreign.json.code]).toEqual([404, "TRANSACTION_NOT_FOUND"]);
    const view = await platform.partner(stranger, "GET", `/transactions/${txId}`);
    expect(view.status).toBe(404);
  });

  it("20 concurrent requests with one key: exactly one debit", async () => {
    const txId = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    const before = await balance(platform, partner.partnerId);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => executePayout(platform, partner, txId, "key-storm")),
    );
    const ok = answers.filter((a) => a.status === 200);
    const originals = ok.filter((a) => a.headers.get("idempotent-replayed") === null);
    expect(originals).toHaveLength(1);
    for (const a of ok) expect(a.text).toBe(originals[0]!.text);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect([a.status, a.json.code]).toEqual([409, "IDEMPOTENCY_KEY_IN_USE"]);
      expect(a.headers.get("retry-after")).toBe("1");
    }
    const after = await balance(platform, partner.partnerId);
    expect(Number(before) - Number(after)).toBeCloseTo(10.45, 10);
  });
});

describe("quotes", () => {
  it("refuses to quote a transaction that is not PENDING, a wrong currency and a bad amount", async () => {
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId);
    const currency = await platform.partner(partner, "POST", "/getQuotation", {
      tx_id: txId,
      amount: 1000,
      currency: "BRL",
    });
    expect([currency.status, currency.json.field]).toEqual([400, "currency"]);
    const zero = await platform.partner(partner, "POST", "/getQuotation", { tx_id: txId, amount: 0 });
    expect([zero.status, zero.json.code]).toEqual([400, "INVALID_AMOUNT"]);
    const unknown = await platform.partner(partner, "POST", "/getQuotation", {
      tx_id: "tx_missing",
      amount: 1000,
    });
    expect([unknown.status, unknown.json.code]).toEqual([404, "TRANSACTION_NOT_FOUND"]);
    await quoted(platform, partner, txId);
    await executePayout(platform, partner, txId, "key-quoted");
    const late = await platform.partner(partner, "POST", "/getQuotation", { tx_id: txId, amount: 1000 });
    expect([late.status, late.json.code]).toEqual([409, "TRANSACTION_NOT_PENDING"]);
  });
});

describe("listing", () => {
  it("lists newest first with filters and an opaque cursor", async () => {
    const partner = await fundedPartner(platform, "100");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await pendingTransaction(platform, partner.partnerId, { partnerTransactionId: `ref-${i}` }));
      await new Promise((r) => setTimeout(r, 5));
    }
    await quoted(platform, partner, ids[1]!);
    await executePayout(platform, partner, ids[1]!, "key-list");

    const page1 = await platform.partner(partner, "GET", "/listTransactions?limit=2");
    expect(page1.status).toBe(200);
    expect(page1.json.transactions.map((t: { tx_id: string }) => t.tx_id)).toEqual([ids[2], ids[1]]);
    const page2 = await platform.partner(
      partner,
      "GET",
      `/listTransactions?limit=2&cursor=${page1.json.next_cursor}`,
    );
    expect(page2.json.transactions.map((t: { tx_id: string }) => t.tx_id)).toEqual([ids[0]]);
    expect(page2.json.next_cursor).toBeNull();

    const processing = await platform.partner(partner, "GET", "/listTransactions?status=PROCESSING");
    expect(processing.json.transactions.map((t: { tx_id: string }) => t.tx_id)).toEqual([ids[1]]);
    expect(processing.json.transactions[0].status_history).toBeUndefined();
    const byRef = await platform.partner(partner, "GET", "/listTransactions?partner_transaction_id=ref-0");
    expect(byRef.json.transactions.map((t: { tx_id: string }) => t.tx_id)).toEqual([ids[0]]);
    const future = await platform.partner(
      partner,
      "GET",
      "/listTransactions?created_from=2999-01-01T00:00:00Z",
    );
    expect(future.json.transactions).toEqual([]);

    for (const bad of [
      "limit=0",
      "limit=101",
      "status=DONE",
      "created_to=yesterday",
      "cursor=abc",
      "dp=11",
    ]) {
      const res = await platform.partner(partner, "GET", `/listTransactions?${bad}`);
      expect([bad, res.status, res.json.code]).toEqual([bad, 400, "INVALID_FIELD"]);
    }
    const other = await fundedPartner(platform, "0");
    const none = await platform.partner(other, "GET", "/listTransactions");
    expect(none.json.transactions).toEqual([]);
  });
});

describe("rail callbacks", () => {
  const SECRET = "test-rail-callback-secret-of-32-bytes";
  const now = () => railCallbackTimestamp(new Date());
  const sign = (body: string, timestamp = now(), secret = SECRET) =>
    railCallbackSignature(secret, timestamp, body);
  /** `timestamp: null` sends no X-Rail-Timestamp header. */
  const callback = (body: string, signature: string | undefined, timestamp: string | null = now()) =>
    fetch(`${platform.baseUrl}/callbacks/rail`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(timestamp === null ? {} : { "x-rail-timestamp": timestamp }),
        ...(signature ? { "x-rail-signature": signature } : {}),
      },
      body,
    });
  const codeOf = async (res: Response) => [res.status, ((await res.json()) as { code: string }).code];

  it("accepts a correctly signed callback once and duplicates harmlessly; refuses bad signatures", async () => {
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    await executePayout(platform, partner, txId, "key-callback");
    const body = JSON.stringify({
      tx_id: txId,
      outcome: "FAILED",
      reason: "bank offline",
      provider_reference: "p1",
    });

    const ts = now();
    const bodyOnly = createHmac("sha256", SECRET).update(body).digest("base64");
    for (const [signature, timestamp] of [
      [undefined, ts],
      [sign(body, ts, "wrong-secret"), ts],
      [sign(`${body} `, ts), ts],
      [sign(body, String(Number(ts) - 1)), ts],
      [sign(body, ts), null],
      [sign(body, ts), "soon"],
      // The signature of the body alone, without the timestamp, is no longer enough.
      [bodyOnly, ts],
      ["not base64!", ts],
      ["", ts],
    ] as const) {
      expect(await codeOf(await callback(body, signature, timestamp))).toEqual([401, "INVALID_SIGNATURE"]);
    }
    expect(await balance(platform, partner.partnerId)).toBe("89.55");

    const first = await callback(body, sign(body));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ tx_id: txId, status: "FAILED", changed: true });
    const duplicate = await callback(body, sign(body));
    expect(await duplicate.json()).toEqual({ tx_id: txId, status: "FAILED", changed: false });
    expect(await balance(platform, partner.partnerId)).toBe("100");

    const view = await platform.partner(partner, "GET", `/transactions/${txId}`);
    expect(view.json).toMatchObject({ status: "FAILED", failure_reason: "bank offline" });

    const unknown = JSON.stringify({ tx_id: "tx_unknown", outcome: "SUCCESS" });
    expect((await callback(unknown, sign(unknown))).status).toBe(404);
    const garbage = "{not json";
    expect((await callback(garbage, sign(garbage))).status).toBe(400);
  });

  it("refuses an authentic callback signed more than the tolerance ago or ahead (a replay) as STALE_CALLBACK", async () => {
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    await executePayout(platform, partner, txId, "key-stale");
    const body = JSON.stringify({ tx_id: txId, outcome: "SUCCESS", provider_reference: "p2" });
    for (const offsetMs of [-301_000, -3_600_000, 301_000]) {
      const ts = railCallbackTimestamp(new Date(Date.now() + offsetMs));
      expect(await codeOf(await callback(body, sign(body, ts), ts))).toEqual([401, "STALE_CALLBACK"]);
    }
    const view = await platform.partner(partner, "GET", `/transactions/${txId}`);
    expect(view.json.status).toBe("PROCESSING");
    const recent = railCallbackTimestamp(new Date(Date.now() - 240_000));
    const accepted = await callback(body, sign(body, recent), recent);
    expect(await accepted.json()).toEqual({ tx_id: txId, status: "SUCCESS", changed: true });
  });
});

describe("admin ledger routes", () => {
  it("credits with 201, reads balances, and answers 404 for unknown partners and transactions", async () => {
    const partner = await fundedPartner(platform, "0");
    const credits = `/admin/partners/${partner.partnerId}/balance/credits`;
    const key = (k: string) => ({ "X-Idempotency-Key": k });
    const credit = await platform.admin(
      "POST",
      credits,
      { amount_usd: "12.34", reference: "wire 42" },
      key("wire-42"),
    );
    expect(credit.status).toBe(201);
    expect(credit.json.balance_usd).toBe("12.34");
    const negative = await platform.admin("POST", credits, { amount_usd: "-1", reference: "x" }, key("neg"));
    expect([negative.status, negative.json.code]).toEqual([400, "INVALID_AMOUNT"]);
    const missing = await platform.admin("POST", credits, { amount_usd: 1 }, key("missing"));
    expect([missing.status, missing.json.field]).toEqual([400, "reference"]);
    expect((await platform.admin("GET", "/admin/partners/ptr_nobody/balance")).status).toBe(404);
    expect(
      (
        await platform.admin(
          "POST",
          "/admin/partners/ptr_nobody/balance/credits",
          { amount_usd: 1, reference: "x" },
          key("nobody"),
        )
      ).status,
    ).toBe(404);
    expect((await platform.admin("POST", "/admin/transactions/tx_nope/refund", {})).status).toBe(404);
    const settle = await platform.admin("POST", "/admin/sandbox/transactions/tx_nope/settle", {
      outcome: "SUCCESS",
    });
    expect([settle.status, settle.json.code]).toEqual([404, "TRANSACTION_NOT_FOUND"]);
    const badOutcome = await platform.admin("POST", "/admin/sandbox/transactions/tx_nope/settle", {
      outcome: "MAYBE",
    });
    expect([badOutcome.status, badOutcome.json.field]).toEqual([400, "outcome"]);
  });
});
