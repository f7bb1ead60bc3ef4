/**
 * The ledger service on real PostgreSQL, through its RPCs: the lifecycle with exact balances, the
 * executePayout result codes in precedence order, stored and replayed outcomes, the rail hand-off and
 * its retries, expiry, and the outbox.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { TransactionSchema, TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  destination,
  freshKey,
  type LedgerHarness,
  quote,
  reasonOf,
  startLedgerHarness,
  waitFor,
} from "./support/ledger-harness.js";
import { assertLedgerInvariants, balanceOf } from "./support/ledger-invariants.js";

const FP1 = "1".repeat(64);
const FP2 = "2".repeat(64);

let h: LedgerHarness;
let seq = 0;
const partner = () => `ptr_rpc_${++seq}`;

async function pendingTx(partnerId: string, q = quote("10", "0.15", "0.3")) {
  const created = await h.client.createTransaction({
    partnerId,
    customerId: "cus_1",
    destination: destination(),
  });
  const txId = created.transaction!.txId;
  await h.quoteWith({ partnerId, txId, quote: q });
  return txId;
}

const execute = (partnerId: string, txId: string, key: string, fingerprint = FP1, requestId = "req_1") =>
  h.client.executePayout({
    partnerId,
    txId,
    idempotencyKey: key,
    requestFingerprint: fingerprint,
    requestId,
  });

beforeAll(async () => {
  h = await startLedgerHarness();
});
afterAll(async () => {
  await assertLedgerInvariants(h.db);
  await h.close();
});

describe("lifecycle", () => {
  it("credit → execute → success → refund moves exactly the quoted total", async () => {
    const p = partner();
    expect(
      (await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "wire 1", ...freshKey() }))
        .balanceUsd,
    ).toBe("100");
    const txId = await pendingTx(p, quote("19.518288636452356638", "0.29277432954678535", "0.3"));
    const res = await execute(p, txId, "k-life");
    expect(res.replayed).toBe(false);
    expect(res.transaction?.status).toBe(TransactionStatus.PROCESSING);
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("79.888937034000858012");
    expect(await balanceOf(h.db, p, "in_flight")).toBe("20.111062965999141988");
    await waitFor("rail submission", () => h.submissions.find((s) => s.txId === txId));

    const success = await h.client.recordRailResult({ txId, outcome: "SUCCESS", providerReference: "prv" });
    expect(success.changed).toBe(true);
    expect(success.transaction?.status).toBe(TransactionStatus.SUCCESS);
    expect(await balanceOf(h.db, p, "settled")).toBe("19.518288636452356638");
    expect(await balanceOf(h.db, p, "fees")).toBe("0.59277432954678535");
    expect(await balanceOf(h.db, p, "in_flight")).toBe("0");

    const again = await h.client.recordRailResult({ txId, outcome: "SUCCESS" });
    expect(again.changed).toBe(false);

    const refunded = await h.client.refundTransaction({ txId, reason: "customer complaint" });
    expect(refunded.transaction?.status).toBe(TransactionStatus.REFUNDED);
    expect(refunded.transaction?.refundReason).toBe("customer complaint");
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("100");
    expect(await reasonOf(h.client.refundTransaction({ txId, reason: "" }))).toBe(
      "TRANSACTION_NOT_REFUNDABLE",
    );

    const { transaction } = await h.client.getTransaction({ partnerId: p, txId, includeHistory: true });
    expect(transaction?.history.map((c) => c.to)).toEqual([
      TransactionStatus.PENDING,
      TransactionStatus.PROCESSING,
      TransactionStatus.SUCCESS,
      TransactionStatus.REFUNDED,
    ]);
  });

  it("a rail failure reverses the whole debit and a late success changes nothing", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "20", reference: "r", ...freshKey() });
    const txId = await pendingTx(p);
    await execute(p, txId, "k-fail");
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("9.55");
    const failed = await h.client.recordRailResult({ txId, outcome: "FAILED", reason: "account closed" });
    expect(failed.transaction?.status).toBe(TransactionStatus.FAILED);
    expect(failed.transaction?.failureReason).toBe("account closed");
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("20");
    expect((await h.client.recordRailResult({ txId, outcome: "FAILED" })).changed).toBe(false);
    expect((await h.client.recordRailResult({ txId, outcome: "SUCCESS" })).changed).toBe(false);
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("20");
    expect(await reasonOf(h.client.refundTransaction({ txId, reason: "" }))).toBe(
      "TRANSACTION_NOT_REFUNDABLE",
    );
  });

  it("refuses rail results for a transaction never executed, and unknown outcomes", async () => {
    const p = partner();
    const txId = await pendingTx(p);
    expect(await reasonOf(h.client.recordRailResult({ txId, outcome: "SUCCESS" }))).toBe(
      "TRANSACTION_NOT_PROCESSING",
    );
    expect(await reasonOf(h.client.recordRailResult({ txId, outcome: "DONE" }))).toBe("INVALID_FIELD");
    expect(await reasonOf(h.client.recordRailResult({ txId: "tx_nope", outcome: "SUCCESS" }))).toBe(
      "TRANSACTION_NOT_FOUND",
    );
  });

  it("a newer quote replaces the older one and only a PENDING transaction takes one", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "50", reference: "r", ...freshKey() });
    const txId = await pendingTx(p, quote("10"));
    const second = await h.quoteWith({ partnerId: p, txId, quote: quote("20", "1") });
    expect(second.quote?.totalUsd).toBe("21");
    const stored = await h.client.getTransaction({ partnerId: p, txId });
    expect(stored.transaction?.quote).toMatchObject({ quoteId: second.quote?.quoteId, totalUsd: "21" });
    await execute(p, txId, "k-requote");
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("29");
    const asked = h.pricingRequests.length;
    expect(await reasonOf(h.quoteWith({ partnerId: p, txId, quote: quote("1") }))).toBe(
      "TRANSACTION_NOT_PENDING",
    );
    // Refused before pricing is asked.
    expect(h.pricingRequests).toHaveLength(asked);
  });

  it("QuoteTransaction answers getQuotation's rules in order and asks pricing for the corridor", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "50", reference: "r", ...freshKey() });
    const created = await h.client.createTransaction({ partnerId: p, destination: destination() });
    const txId = created.transaction!.txId;
    const asked = h.pricingRequests.length;
    const priced = await h.quoteWith({ partnerId: p, txId, quote: quote("10"), currency: "ngn" });
    expect(h.pricingRequests.slice(asked)).toMatchObject([
      { partnerId: p, countryCode: "NG", currency: "NGN", amount: priced.quote?.amount },
    ]);
    const wrongCurrency = await h
      .quoteWith({ partnerId: p, txId, quote: quote("10"), currency: "BRL" })
      .catch((e: unknown) => e);
    expect(errorDetailOf(wrongCurrency)).toMatchObject({ reason: "INVALID_FIELD", field: "currency" });
    expect((wrongCurrency as Error).message).toContain("currency must be the transaction's currency NGN");
    expect(
      await reasonOf(h.quoteWith({ partnerId: "ptr_other", txId, quote: quote("1"), currency: "BRL" })),
    ).toBe("TRANSACTION_NOT_FOUND");
    expect(await reasonOf(h.client.quoteTransaction({ partnerId: "", txId, amount: "1" }))).toBe(
      "MISSING_REQUIRED_FIELD",
    );
    // Pricing's refusal comes back as pricing gave it (reason, field, message), and nothing is stored.
    const refused = await h.client
      .quoteTransaction({ partnerId: p, txId, amount: "999" })
      .catch((e: unknown) => e);
    expect(errorDetailOf(refused)).toMatchObject({ reason: "AMOUNT_OUT_OF_RANGE", field: "amount" });
    expect((refused as Error).message).toContain("no price for 999 NGN");
    expect((await h.client.getTransaction({ partnerId: p, txId })).transaction?.quote?.quoteId).toBe(
      priced.quote?.quoteId,
    );
    await execute(p, txId, "k-quotable");
    // Not PENDING comes before the currency.
    expect(await reasonOf(h.quoteWith({ partnerId: p, txId, quote: quote("1"), currency: "BRL" }))).toBe(
      "TRANSACTION_NOT_PENDING",
    );
  });

  it("answers SERVICE_UNAVAILABLE with retry_after_seconds when pricing does not answer, storing nothing", async () => {
    const p = partner();
    const created = await h.client.createTransaction({ partnerId: p, destination: destination() });
    const txId = created.transaction!.txId;
    h.failNextPricing(1);
    const down = await h.quoteWith({ partnerId: p, txId, quote: quote("10") }).catch((e: unknown) => e);
    expect(errorDetailOf(down)).toMatchObject({
      reason: "SERVICE_UNAVAILABLE",
      metadata: { retry_after_seconds: "5" },
    });
    expect((await h.client.getTransaction({ partnerId: p, txId })).transaction?.quote).toBeUndefined();
    // Pricing back: the same request succeeds.
    expect((await h.quoteWith({ partnerId: p, txId, quote: quote("10") })).quote?.amountUsd).toBe("10");
  });

  it("CreateTransaction prices a given amount through pricing, relaying its refusals and storing nothing", async () => {
    const p = partner();
    const offered = quote("10", "0.15", "0.3");
    h.offerQuote(p, offered);
    const asked = h.pricingRequests.length;
    const created = await h.client.createTransaction({
      partnerId: p,
      destination: destination(),
      amount: "15000",
    });
    expect(h.pricingRequests.slice(asked)).toMatchObject([
      { partnerId: p, countryCode: "NG", currency: "NGN", amount: "15000" },
    ]);
    expect(created.transaction?.quote).toMatchObject({
      quoteId: offered.quoteId,
      amountUsd: "10",
      fee: "0.45",
    });
    const txId = created.transaction!.txId;
    expect((await h.client.getTransaction({ partnerId: p, txId })).transaction?.quote?.quoteId).toBe(
      offered.quoteId,
    );

    const listed = async () => (await h.client.listTransactions({ partnerId: p })).transactions.length;
    const refused = await h.client
      .createTransaction({ partnerId: p, destination: destination(), amount: "999" })
      .catch((e: unknown) => e);
    expect(errorDetailOf(refused)).toMatchObject({ reason: "AMOUNT_OUT_OF_RANGE", field: "amount" });
    expect((refused as Error).message).toContain("no price for 999 NGN");
    h.failNextPricing(1);
    const down = await h.client
      .createTransaction({ partnerId: p, destination: destination(), amount: "15000" })
      .catch((e: unknown) => e);
    expect(errorDetailOf(down)).toMatchObject({
      reason: "SERVICE_UNAVAILABLE",
      metadata: { retry_after_seconds: "5" },
    });
    expect(await listed()).toBe(1);
  });

  it("rejects quotes the ledger could not debit exactly, and amounts a dynamic QR does not fix", async () => {
    const p = partner();
    const created = await h.client.createTransaction({ partnerId: p, destination: destination() });
    const txId = created.transaction!.txId;
    const bad = { ...quote("10"), amountUsd: "10.0000000000000000001", totalUsd: "" };
    expect(await reasonOf(h.quoteWith({ partnerId: p, txId, quote: bad }))).toBe("INVALID_FIELD");
    expect(
      await reasonOf(h.quoteWith({ partnerId: p, txId, quote: quote("1", "0", "0", { currency: "BRL" }) })),
    ).toBe("INVALID_FIELD");
    const qr = await h.client.createTransaction({
      partnerId: p,
      destination: { ...destination(), amount: "15000" },
    });
    const qrTx = qr.transaction!.txId;
    const other = await h
      .quoteWith({ partnerId: p, txId: qrTx, quote: quote("20") })
      .catch((e: unknown) => e);
    expect(errorDetailOf(other)).toMatchObject({ reason: "INVALID_AMOUNT", field: "amount" });
    expect((await h.client.getTransaction({ partnerId: p, txId: qrTx })).transaction?.quote).toBeUndefined();
    expect((await h.quoteWith({ partnerId: p, txId: qrTx, quote: quote("10") })).quote?.amount).toBe("15000");
  });
});

describe("executePayout result codes and idempotency", () => {
  it("answers in precedence order and stores business refusals", async () => {
    const p = partner();
    const txId = await pendingTx(p);
    // Another partner's tx is not found, whatever else is wrong.
    expect(await reasonOf(execute("ptr_stranger", txId, "k-a"))).toBe("TRANSACTION_NOT_FOUND");
    // No funds: refused and stored under the key.
    expect(await reasonOf(execute(p, txId, "k-a", FP1, "req_first"))).toBe("INSUFFICIENT_FUNDS");
    await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
    // Same key, same request: the stored refusal, with the first request's id, even though funds now suffice.
    const replay = await execute(p, txId, "k-a", FP1, "req_second").catch((e: unknown) => e);
    expect(await reasonOf(Promise.reject(replay))).toBe("INSUFFICIENT_FUNDS");
    expect(errorDetailOf(replay)?.metadata).toMatchObject({ replayed: "true", request_id: "req_first" });
    // Same key, different request.
    expect(await reasonOf(execute(p, txId, "k-a", FP2))).toBe("IDEMPOTENCY_KEY_REUSED");
    // A fresh key executes.
    const ok = await execute(p, txId, "k-b");
    expect(ok.transaction?.status).toBe(TransactionStatus.PROCESSING);
    // A second key for the executed tx.
    expect(await reasonOf(execute(p, txId, "k-c"))).toBe("TRANSACTION_NOT_PENDING");
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("89.55");
  });

  it("QUOTE_REQUIRED and QUOTE_EXPIRED, each before INSUFFICIENT_FUNDS", async () => {
    const p = partner();
    const created = await h.client.createTransaction({ partnerId: p, destination: destination() });
    const unquoted = created.transaction!.txId;
    expect(await reasonOf(execute(p, unquoted, "k-q1"))).toBe("QUOTE_REQUIRED");
    const expiredTx = await pendingTx(p, quote("10", "0", "0", { ttlMs: -1000 }));
    expect(await reasonOf(execute(p, expiredTx, "k-q2"))).toBe("QUOTE_EXPIRED");
  });

  it("replays a success with the snapshot as it was, even after the transaction moved on", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
    const txId = await pendingTx(p);
    const first = await execute(p, txId, "k-replay");
    await h.client.recordRailResult({ txId, outcome: "SUCCESS" });
    const again = await execute(p, txId, "k-replay");
    expect(again.replayed).toBe(true);
    expect(again.transaction?.status).toBe(TransactionStatus.PROCESSING);
    expect(toBinary(TransactionSchema, again.transaction!)).toEqual(
      toBinary(TransactionSchema, first.transaction!),
    );
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("89.55");
  });

  it("IDEMPOTENCY_KEY_IN_USE while another request holds the key", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
    const txId = await pendingTx(p);
    const other = new pg.Client({ connectionString: h.url });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
        JSON.stringify(["ledger.idempotency", p, "POST /executePayout", "k-busy"]),
      ]);
      expect(await reasonOf(execute(p, txId, "k-busy"))).toBe("IDEMPOTENCY_KEY_IN_USE");
      await other.query("ROLLBACK");
    } finally {
      await other.end();
    }
    expect((await execute(p, txId, "k-busy")).replayed).toBe(false);
  });

  it("20 concurrent requests with one key debit exactly once", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
    const txId = await pendingTx(p);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        execute(p, txId, "k-storm").then(
          (r) => (r.replayed ? "replayed" : "executed"),
          (e: unknown) => reasonOf(Promise.reject(e)),
        ),
      ),
    );
    expect(results.filter((r) => r === "executed")).toHaveLength(1);
    expect(results.every((r) => ["executed", "replayed", "IDEMPOTENCY_KEY_IN_USE"].includes(r))).toBe(true);
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("89.55");
    const debits = await h.db.query("SELECT 1 FROM ledger.movements WHERE tx_id = $1 AND kind = 'payout'", [
      txId,
    ]);
    expect(debits.rowCount).toBe(1);
  });

  it("20 concurrent requests with different keys on one tx: one executes, the rest are NOT_PENDING", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
    const txId = await pendingTx(p);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => reasonOf(execute(p, txId, `k-race-${i}`))),
    );
    expect(results.filter((r) => r === "OK")).toHaveLength(1);
    expect(results.filter((r) => r === "TRANSACTION_NOT_PENDING")).toHaveLength(19);
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("89.55");
  });

  it("parallel payouts never overdraw: exactly as many succeed as the balance covers", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "52.25", reference: "r", ...freshKey() }); // 5 × 10.45, plus change
    const txIds = await Promise.all(Array.from({ length: 12 }, () => pendingTx(p)));
    const results = await Promise.all(txIds.map((txId, i) => reasonOf(execute(p, txId, `k-par-${i}`))));
    expect(results.filter((r) => r === "OK")).toHaveLength(5);
    expect(results.filter((r) => r === "INSUFFICIENT_FUNDS")).toHaveLength(7);
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("0");
    await assertLedgerInvariants(h.db);
  });

  it("replays after a restart of the ledger process", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
    const txId = await pendingTx(p);
    const first = await execute(p, txId, "k-restart");
    const second = await h.restart();
    const replay = await second.client.executePayout({
      partnerId: p,
      txId,
      idempotencyKey: "k-restart",
      requestFingerprint: FP1,
      requestId: "req_after_restart",
    });
    expect(replay.replayed).toBe(true);
    expect(toBinary(TransactionSchema, replay.transaction!)).toEqual(
      toBinary(TransactionSchema, first.transaction!),
    );
    await second.module.stop();
  });
});

describe("rail hand-off", () => {
  it("resubmits a payout the rail did not acknowledge", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
    const txId = await pendingTx(p);
    h.failNextSubmissions(2);
    await execute(p, txId, "k-rail");
    const row = await waitFor("rail acknowledgement", async () => {
      const res = await h.db.query<{
        rail_submitted_at: Date | null;
        provider_reference: string;
        rail_attempts: number;
      }>(
        "SELECT rail_submitted_at, provider_reference, rail_attempts FROM ledger.transactions WHERE tx_id = $1",
        [txId],
      );
      return res.rows[0]?.rail_submitted_at ? res.rows[0] : undefined;
    });
    expect(row.provider_reference).toBe(`prv_${txId}`);
    expect(row.rail_attempts).toBe(3);
    expect(h.submissions.filter((s) => s.txId === txId)).toHaveLength(3);
    const submitted = h.submissions.find((s) => s.txId === txId)!;
    expect(submitted).toMatchObject({
      countryCode: "NG",
      currency: "NGN",
      amount: "15000",
      paymentDestination: "0123456789",
    });
  });
});

describe("answers built from one write set", () => {
  // Each status change is one statement whose answer (and outbox event) is built from the row as the
  // statement leaves it: a fresh read of the transaction must find exactly what was answered.
  const stored = async (partnerId: string, txId: string) =>
    (await h.client.getTransaction({ partnerId, txId, includeHistory: true })).transaction!;

  it("createTransaction, executePayout, a rail verdict and a refund answer what a fresh read finds", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
    h.offerQuote(p, quote("10", "0.15", "0.3"));
    const created = await h.client.createTransaction({
      partnerId: p,
      customerId: "cus_1",
      destination: destination(),
      amount: "15000",
    });
    const txId = created.transaction!.txId;
    expect(created.transaction).toEqual(await stored(p, txId));
    expect(created.transaction!.history).toHaveLength(1);

    const executed = await execute(p, txId, "k-one-statement");
    await waitFor("rail submission", () => h.submissions.find((s) => s.txId === txId));
    // The rail's acknowledgement adds the provider reference after the answer; nothing else may differ.
    expect(executed.transaction).toEqual({ ...(await stored(p, txId)), providerReference: "" });
    expect(executed.transaction!.history.map((c) => c.to)).toEqual([
      TransactionStatus.PENDING,
      TransactionStatus.PROCESSING,
    ]);

    const settled = await h.client.recordRailResult({ txId, outcome: "SUCCESS", providerReference: "prv" });
    expect(settled.transaction).toEqual(await stored(p, txId));
    const refunded = await h.client.refundTransaction({ txId, reason: "duplicate" });
    expect(refunded.transaction).toEqual(await stored(p, txId));
    expect(refunded.transaction!.history).toHaveLength(4);
    expect((await h.client.getBalance({ partnerId: p })).balanceUsd).toBe("100");
  });
});

describe("outbox", () => {
  it("publishes every status change once, in sequence per transaction, with id and type headers", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
    const txId = await pendingTx(p);
    await execute(p, txId, "k-events");
    await h.client.recordRailResult({ txId, outcome: "SUCCESS" });
    await h.client.refundTransaction({ txId, reason: "duplicate payment" });
    const mine = await waitFor("four events", () => {
      const list = h.published.filter((m) => m.key === txId);
      return list.length >= 4 ? list : undefined;
    });
    const events = mine.map((m) => fromBinary(TransactionEventSchema, m.value));
    expect(events.map((e) => e.eventType)).toEqual([
      "transaction.created",
      "transaction.processing",
      "transaction.success",
      "transaction.refunded",
    ]);
    expect(events.map((e) => Number(e.sequence))).toEqual([1, 2, 3, 4]);
    expect(mine.map((m) => m.headers["event-type"])).toEqual(events.map((e) => e.eventType));
    expect(mine.map((m) => m.headers["event-id"])).toEqual(events.map((e) => e.eventId));
    const refunded = events[3]!;
    expect(refunded).toMatchObject({
      status: "REFUNDED",
      refundReason: "duplicate payment",
      amount: "15000",
      currency: "NGN",
      amountUsd: "10",
      fee: "0.45",
      percentageFee: "0.15",
      fixedFee: "0.3",
      partnerId: p,
    });
    expect(refunded.recipient).toMatchObject({ account_no: "0123456789", name_first: "Ada" });
    expect(refunded.sender).toMatchObject({ name_first: "Sam" });
    await waitFor("rows marked published", async () => {
      const res = await h.db.query("SELECT 1 FROM ledger.outbox WHERE tx_id = $1 AND published_at IS NULL", [
        txId,
      ]);
      return res.rowCount === 0;
    });
  });
});

describe("listing", () => {
  it("pages newest first with an opaque cursor and filters", async () => {
    const p = partner();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await h.client.createTransaction({
        partnerId: p,
        destination: destination(),
        partnerTransactionId: i === 2 ? "order-2" : "",
      });
      ids.push(c.transaction!.txId);
      await new Promise((r) => setTimeout(r, 3));
    }
    const page1 = await h.client.listTransactions({ partnerId: p, limit: 2 });
    const page2 = await h.client.listTransactions({ partnerId: p, limit: 2, cursor: page1.nextCursor });
    const page3 = await h.client.listTransactions({ partnerId: p, limit: 2, cursor: page2.nextCursor });
    expect([...page1.transactions, ...page2.transactions, ...page3.transactions].map((t) => t.txId)).toEqual(
      [...ids].reverse(),
    );
    expect(page3.nextCursor).toBe("");
    const byRef = await h.client.listTransactions({ partnerId: p, partnerTransactionId: "order-2" });
    expect(byRef.transactions.map((t) => t.txId)).toEqual([ids[2]]);
    const processing = await h.client.listTransactions({
      partnerId: p,
      status: TransactionStatus.PROCESSING,
    });
    expect(processing.transactions).toHaveLength(0);
    expect(await reasonOf(h.client.listTransactions({ partnerId: p, cursor: "garbage" }))).toBe(
      "INVALID_FIELD",
    );
    expect(await reasonOf(h.client.listTransactions({ partnerId: p, limit: 101 }))).toBe("INVALID_FIELD");
    const other = await h.client.listTransactions({ partnerId: "ptr_nobody" });
    expect(other.transactions).toHaveLength(0);
  });
});

describe("database guards", () => {
  it("refuses an unbalanced movement, an overdraft and edits of entries at the SQL level", async () => {
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "1", reference: "r", ...freshKey() });
    const client = new pg.Client({ connectionString: h.url });
    await client.connect();
    const attempt = async (sql: string) => {
      try {
        await client.query("BEGIN");
        await client.query(sql);
        await client.query("COMMIT");
        return "committed";
      } catch (error) {
        await client.query("ROLLBACK");
        return (error as { code?: string }).code;
      }
    };
    try {
      expect(
        await attempt(`INSERT INTO ledger.movements (movement_id, partner_id, kind, reference) VALUES ('mov_x', '${p}', 'credit', 'x');
                       INSERT INTO ledger.entries (movement_id, partner_id, kind, amount) VALUES ('mov_x', '${p}', 'balance', 5)`),
      ).toBe("23514");
      expect(
        await attempt(`INSERT INTO ledger.movements (movement_id, partner_id, kind, reference) VALUES ('mov_y', '${p}', 'credit', 'x');
                       INSERT INTO ledger.entries (movement_id, partner_id, kind, amount) VALUES ('mov_y', '${p}', 'balance', -2), ('mov_y', '${p}', 'in_flight', 2)`),
      ).toBe("23514");
      expect(await attempt(`UPDATE ledger.entries SET amount = amount * 2 WHERE partner_id = '${p}'`)).toBe(
        "42501",
      );
      expect(await attempt(`DELETE FROM ledger.entries WHERE partner_id = '${p}'`)).toBe("42501");
    } finally {
      await client.end();
    }
    expect(await balanceOf(h.db, p)).toBe("1");
  });
});

describe("expiry", () => {
  it("expires PENDING transactions after PENDING_TTL_MS, with an event, and they cannot be executed", async () => {
    const short = await startLedgerHarness({ PENDING_TTL_MS: "300" });
    try {
      const p = "ptr_expiry";
      await short.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
      const created = await short.client.createTransaction({ partnerId: p, destination: destination() });
      const txId = created.transaction!.txId;
      await short.quoteWith({ partnerId: p, txId, quote: quote("10") });
      const expired = await waitFor("expiry", async () => {
        const { transaction } = await short.client.getTransaction({ partnerId: p, txId });
        return transaction?.status === TransactionStatus.EXPIRED ? transaction : undefined;
      });
      expect(expired.status).toBe(TransactionStatus.EXPIRED);
      const outcome = await reasonOf(
        short.client.executePayout({ partnerId: p, txId, idempotencyKey: "k", requestFingerprint: FP1 }),
      );
      expect(outcome).toBe("TRANSACTION_NOT_PENDING");
      await waitFor(
        "expired event",
        () =>
          short.published.some((m) => m.key === txId && m.headers["event-type"] === "transaction.expired") ||
          undefined,
      );
      expect((await short.client.getBalance({ partnerId: p })).balanceUsd).toBe("100");
      await assertLedgerInvariants(short.db);
    } finally {
      await short.close();
    }
  });
});

describe("relay lease (keep last: it stops the first ledger process's background work)", () => {
  it("with two ledger processes each event is published once; when the relay stops the other takes over", async () => {
    const second = await h.restart();
    const p = partner();
    await h.client.creditBalance({ partnerId: p, amountUsd: "1000", reference: "r", ...freshKey() });
    const created: string[] = [];
    for (let i = 0; i < 10; i++) {
      const client = i % 2 === 0 ? h.client : second.client;
      const c = await client.createTransaction({ partnerId: p, destination: destination() });
      created.push(c.transaction!.txId);
    }
    const eventIdsOf = (txIds: readonly string[]) =>
      h.published.filter((m) => txIds.includes(m.key)).map((m) => m.headers["event-id"]);
    await waitFor("ten created events", () => eventIdsOf(created).length >= 10 || undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(new Set(eventIdsOf(created)).size).toBe(10);
    expect(eventIdsOf(created)).toHaveLength(10);

    await h.module.stop();
    const later = await second.client.createTransaction({ partnerId: p, destination: destination() });
    await waitFor(
      "event published by the remaining relay",
      () => eventIdsOf([later.transaction!.txId]).length === 1 || undefined,
    );
    const lease = await h.db.query<{ holder: string }>(
      "SELECT holder FROM ledger.relay_lease WHERE name = 'outbox'",
    );
    expect(lease.rows).toHaveLength(1);
  });
});
