/**
 * Bulk payouts end to end in one process on real PostgreSQL: the ledger's BatchService with the real lookup
 * (destination rules, sandbox name enquiry), the real pricing (corridor limits, binding quotes) and the
 * sandbox rail settling after a short delay through the gateway's signed callback route.
 *
 * The ledger's BatchService is called on the ledger module's own routes (the module the platform runs,
 * with its workers); the gateway's routes for it are built elsewhere.
 */
import { createHash } from "node:crypto";
import { create, fromBinary } from "@bufbuild/protobuf";
import { type Client, createClient, createRouterTransport } from "@connectrpc/connect";
import { Dec } from "@payouts/platform/money/decimal";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { BatchEventSchema, TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import {
  type Batch,
  type BatchItem,
  type BatchItemInput,
  BatchItemInputSchema,
  BatchItemStatus,
  BatchService,
  BatchStatus,
} from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupPartner, type LookupPartner, putPricingData } from "../lookup/lookup-fixtures.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { waitFor } from "./support/ledger-harness.js";
import { assertLedgerInvariants } from "./support/ledger-invariants.js";

const LEASE_MS = 1_500;

/** A request fingerprint as the gateway makes one: hex SHA-256. */
const fp = (text: string) => createHash("sha256").update(text).digest("hex");

let platform: TestPlatform;
let batches: Client<typeof BatchService>;

beforeAll(async () => {
  platform = await startTestPlatform({
    env: {
      SANDBOX_AUTO_SETTLE_MS: "150",
      BATCH_WORK_INTERVAL_MS: "100",
      BATCH_WORK_LEASE_MS: String(LEASE_MS),
      RAIL_RETRY_INTERVAL_MS: "200",
      LEDGER_EXPIRY_SWEEP_MS: "200",
    },
  });
  await putPricingData(platform);
  const ledger = platform.runtime.modules.find((m) => m.name === "ledger");
  if (!ledger) throw new Error("no ledger module");
  batches = createClient(
    BatchService,
    createRouterTransport((router) => ledger.routes(router)),
  );
}, 60_000);
afterAll(async () => {
  // Whatever the tests did, the book still holds every invariant (reservations included).
  if (platform) await assertLedgerInvariants(platform.runtime.db);
  await platform?.close();
});

const BR = { countryCode: "BR", paymentMethod: "payment_key", paymentDestinationCode: "PIX" };
const NG = { countryCode: "NG", paymentMethod: "bank_transfer", paymentDestinationCode: "058" };

interface Destination {
  readonly countryCode: string;
  readonly paymentMethod: string;
  readonly paymentDestination: string;
  readonly paymentDestinationCode: string;
}

function item(
  partner: LookupPartner,
  itemRef: string,
  destination: Destination,
  amount: string,
  expectedName = "",
): BatchItemInput {
  return create(BatchItemInputSchema, {
    itemRef,
    amount,
    expectedName,
    destination: { customerId: partner.customerId, ...destination },
    partnerTransactionId: `ptx-${itemRef}`,
  });
}

async function newPartner(): Promise<LookupPartner> {
  return createLookupPartner(platform, { supported_currencies: ["USD", "BRL", "NGN"] });
}

async function credit(partnerId: string, amountUsd: string): Promise<void> {
  const res = await platform.admin(
    "POST",
    `/admin/partners/${partnerId}/balance/credits`,
    { amount_usd: amountUsd, reference: "bulk test" },
    { "X-Idempotency-Key": `bulk-${partnerId}-${amountUsd}-${Math.random()}` },
  );
  expect(res.status, res.text).toBe(201);
}

async function account(partnerId: string, kind: string): Promise<string> {
  const res = await platform.runtime.db.query<{ balance: string }>(
    "SELECT balance::text AS balance FROM ledger.accounts WHERE partner_id = $1 AND kind = $2",
    [partnerId, kind],
  );
  return new Dec(res.rows[0]?.balance ?? "0").toFixed();
}

async function outboxCount(): Promise<number> {
  const res = await platform.runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger.outbox");
  return res.rows[0]?.n ?? 0;
}

async function validated(partnerId: string, batchId: string): Promise<Batch> {
  return waitFor(
    `batch ${batchId} validated`,
    async () => {
      const { batch } = await batches.getBatch({ partnerId, batchId });
      return batch && batch.status !== BatchStatus.VALIDATING ? batch : undefined;
    },
    20_000,
  );
}

/** A batch created with `request` and validated. */
async function validatedBatch(request: Parameters<typeof batches.createBatch>[0]): Promise<Batch> {
  const { batch } = await batches.createBatch(request);
  return validated(request.partnerId ?? "", batch?.batchId ?? "");
}

async function completedBatch(partnerId: string, batchId: string): Promise<Batch> {
  return waitFor(
    `batch ${batchId} completed`,
    async () => {
      const { batch } = await batches.getBatch({ partnerId, batchId });
      return batch?.status === BatchStatus.COMPLETED ? batch : undefined;
    },
    30_000,
  );
}

async function itemsOf(partnerId: string, batchId: string): Promise<Map<string, BatchItem>> {
  const { items } = await batches.listBatchItems({ partnerId, batchId, limit: 1000 });
  return new Map(items.map((i) => [i.itemRef, i]));
}

async function reasonOf(
  call: Promise<unknown>,
): Promise<{ reason: string; metadata: Record<string, string> }> {
  try {
    await call;
  } catch (error) {
    const detail = errorDetailOf(error);
    return {
      reason: detail?.reason ?? `UNEXPECTED ${(error as Error).message}`,
      metadata: detail?.metadata ?? {},
    };
  }
  return { reason: "OK", metadata: {} };
}

/** What lookupPaymentCode answers for the same destination and amount: its code and field, or its recipient. */
async function lookupAnswer(partner: LookupPartner, destination: Destination, amount: string) {
  const res = await platform.partner(partner, "POST", "/lookupPaymentCode", {
    customer_id: partner.customerId,
    country_code: destination.countryCode,
    payment_method: destination.paymentMethod,
    payment_destination: destination.paymentDestination,
    payment_destination_code: destination.paymentDestinationCode,
    amount,
  });
  return res.status === 200
    ? { ok: true as const, name: String(res.json.recipient?.name ?? "") }
    : { ok: false as const, code: String(res.json.code), field: String(res.json.field ?? "") };
}

describe("validation", () => {
  it("gives each item lookupPaymentCode's and getQuotation's answer: code and field, or verified name", async () => {
    const partner = await newPartner();
    const cases = {
      "br-ok": [{ ...BR, paymentDestination: "52998224725" }, "100"],
      "br-check-digit": [{ ...BR, paymentDestination: "52998224724" }, "100"],
      "br-over-limit": [{ ...BR, paymentDestination: "52998224725" }, "60000"],
      "br-negative": [{ ...BR, paymentDestination: "52998224725" }, "-5"],
      "br-not-found": [{ ...BR, paymentDestination: "00000000191" }, "100"],
      "ng-ok": [{ ...NG, paymentDestination: "0000000018" }, "15000"],
      "ng-not-found": [{ ...NG, paymentDestination: "9999999990" }, "15000"],
    } as const;
    const { batch } = await batches.createBatch({
      partnerId: partner.partnerId,
      items: Object.entries(cases).map(([ref, [d, amount]]) => item(partner, ref, d, amount)),
    });
    expect(batch?.status).toBe(BatchStatus.VALIDATING);
    const done = await validated(partner.partnerId, batch?.batchId ?? "");
    expect(done.status).toBe(BatchStatus.VALIDATED);
    expect(done.expiresAt).toBeDefined();
    const items = await itemsOf(partner.partnerId, done.batchId);

    let invalid = 0;
    for (const [ref, [destination, amount]] of Object.entries(cases)) {
      const got = items.get(ref);
      const want = await lookupAnswer(partner, destination, amount);
      if (want.ok) {
        expect(got?.status, ref).toBe(BatchItemStatus.PENDING);
        expect(got?.verifiedName, ref).toBe(want.name);
        expect(got?.verifiedName, ref).not.toBe("");
        expect(got?.txId, ref).toMatch(/^tx_/);
        expect(new Dec(got?.totalUsd ?? "0").eq(got?.quote?.totalUsd ?? "-1"), ref).toBe(true);
      } else {
        invalid += 1;
        expect(got?.status, ref).toBe(BatchItemStatus.INVALID);
        expect([got?.errorCode, got?.errorField], ref).toEqual([want.code, want.field]);
      }
    }
    // The cases cover refusals from each rule: amount shape, check digits, name enquiry, corridor limits.
    expect(invalid).toBe(5);
    expect(new Set([...items.values()].map((i) => i.errorCode))).toEqual(
      new Set([
        "",
        "INVALID_AMOUNT",
        "AMOUNT_OUT_OF_RANGE",
        items.get("br-check-digit")?.errorCode,
        items.get("br-not-found")?.errorCode,
      ]),
    );
    expect(done.counts).toMatchObject({ total: 7, pending: 2, invalid: 5, validating: 0 });
    // An item's transaction names its batch and item, and only the batch pays it.
    const txId = items.get("br-ok")?.txId ?? "";
    const tx = await platform.partner(
      partner,
      "POST",
      "/executePayout",
      { tx_id: txId },
      { "X-Idempotency-Key": "direct" },
    );
    expect(tx.status, tx.text).toBe(409);
    expect(tx.json.code).toBe("TRANSACTION_NOT_PENDING");
  });

  it("excludes a name mismatch by default and keeps a match regardless of case, accents and order", async () => {
    const partner = await newPartner();
    const destination = { ...BR, paymentDestination: "52998224725" };
    const want = await lookupAnswer(partner, destination, "10");
    if (!want.ok) throw new Error("the sandbox destination must resolve");
    const reordered = want.name.split(" ").reverse().join("  ").toUpperCase();
    const { batch } = await batches.createBatch({
      partnerId: partner.partnerId,
      items: [
        item(partner, "match", destination, "10", reordered),
        item(partner, "mismatch", destination, "10", "Nobody Atall"),
      ],
    });
    await validated(partner.partnerId, batch?.batchId ?? "");
    const items = await itemsOf(partner.partnerId, batch?.batchId ?? "");
    expect(items.get("match")).toMatchObject({ status: BatchItemStatus.PENDING, nameMatch: 2 });
    expect(items.get("mismatch")).toMatchObject({ status: BatchItemStatus.EXCLUDED, nameMatch: 3, txId: "" });
  });
});

describe("funding", () => {
  it("answers INSUFFICIENT_FUNDS with the exact shortfall and writes nothing", async () => {
    const partner = await newPartner();
    const done = await validatedBatch({
      partnerId: partner.partnerId,
      items: [
        item(partner, "a", { ...BR, paymentDestination: "52998224725" }, "123.45"),
        item(partner, "b", { ...NG, paymentDestination: "0000000018" }, "15000"),
      ],
    });
    const total = new Dec(done.totalUsd);
    expect(total.gt(0)).toBe(true);
    await credit(partner.partnerId, "10.00");
    const before = {
      balance: await account(partner.partnerId, "balance"),
      reservation: await account(partner.partnerId, "reservation"),
      outbox: await outboxCount(),
    };
    const refused = await reasonOf(
      batches.approveBatch({ partnerId: partner.partnerId, batchId: done.batchId, approverId: "key_1" }),
    );
    expect(refused.reason).toBe("INSUFFICIENT_FUNDS");
    expect(refused.metadata.shortfall_usd).toBe(total.minus("10").toFixed());
    expect({
      balance: await account(partner.partnerId, "balance"),
      reservation: await account(partner.partnerId, "reservation"),
      outbox: await outboxCount(),
    }).toEqual(before);
    const after = await batches.getBatch({ partnerId: partner.partnerId, batchId: done.batchId });
    expect(after.batch).toMatchObject({ status: BatchStatus.VALIDATED, approvals: [], reservedUsd: "0" });
  });

  it("pays a two-approval batch from its reservation, completes once and releases the rest", async () => {
    const partner = await newPartner();
    const { batch } = await batches.createBatch({
      partnerId: partner.partnerId,
      requiredApprovals: 2,
      items: [
        item(partner, "ok-1", { ...BR, paymentDestination: "52998224725" }, "100.10"),
        item(partner, "ok-2", { ...NG, paymentDestination: "0000000018" }, "15000"),
        item(partner, "fails", { ...BR, paymentDestination: "fail.rail@example.com" }, "50"),
        item(partner, "bad", { ...BR, paymentDestination: "52998224724" }, "50"),
        item(partner, "mismatch", { ...BR, paymentDestination: "52998224725" }, "5", "Nobody Atall"),
      ],
      idempotencyKey: "bulk-happy",
      requestFingerprint: fp("f1"),
    });
    const done = await validated(partner.partnerId, batch?.batchId ?? "");
    expect(done.counts).toMatchObject({ pending: 3, invalid: 1, excluded: 1 });
    await credit(partner.partnerId, "1000.00");
    const start = new Dec(await account(partner.partnerId, "balance"));

    const first = await batches.approveBatch({
      partnerId: partner.partnerId,
      batchId: done.batchId,
      approverId: "key_1",
    });
    expect(first.batch?.status).toBe(BatchStatus.AWAITING_APPROVAL);
    const again = await reasonOf(
      batches.approveBatch({ partnerId: partner.partnerId, batchId: done.batchId, approverId: "key_1" }),
    );
    expect(again.reason).toBe("BATCH_ALREADY_APPROVED_BY");
    expect(await account(partner.partnerId, "reservation")).toBe("0");
    const funded = await batches.approveBatch({
      partnerId: partner.partnerId,
      batchId: done.batchId,
      approverId: "key_2",
    });
    expect(funded.batch?.status).toBe(BatchStatus.PROCESSING);
    expect(funded.batch?.approvals.map((a) => a.approverId)).toEqual(["key_1", "key_2"]);
    // One movement took the whole payable total from the balance.
    expect(new Dec(await account(partner.partnerId, "balance")).eq(start.minus(done.totalUsd))).toBe(true);

    const completed = await completedBatch(partner.partnerId, done.batchId);
    const items = await itemsOf(partner.partnerId, done.batchId);
    expect(items.get("ok-1")?.status).toBe(BatchItemStatus.SUCCESS);
    expect(items.get("ok-2")?.status).toBe(BatchItemStatus.SUCCESS);
    expect(items.get("fails")?.status).toBe(BatchItemStatus.FAILED);
    expect(items.get("fails")?.failureReason).toMatch(/sandbox/);
    const settled = new Dec(items.get("ok-1")?.totalUsd ?? "0").plus(items.get("ok-2")?.totalUsd ?? "0");
    expect(await account(partner.partnerId, "reservation")).toBe("0");
    expect(new Dec(await account(partner.partnerId, "balance")).eq(start.minus(settled))).toBe(true);
    expect(completed.reservedUsd).toBe("0");
    expect(completed.releasedUsd).toBe("0");

    const events = await platform.runtime.db.query<{
      payload: Uint8Array;
      event_type: string;
      tx_id: string | null;
    }>(
      `SELECT payload, event_type, tx_id FROM ledger.outbox
        WHERE event_key = $1 OR tx_id = ANY($2::text[]) ORDER BY id`,
      [done.batchId, [...items.values()].map((i) => i.txId).filter((t) => t !== "")],
    );
    const batchEvents = events.rows.filter((r) => r.event_type === "batch.completed");
    expect(batchEvents).toHaveLength(1);
    const event = fromBinary(BatchEventSchema, batchEvents[0]?.payload ?? new Uint8Array());
    expect(event).toMatchObject({
      batchId: done.batchId,
      status: "COMPLETED",
      succeeded: 2,
      failed: 1,
      invalid: 1,
      // The three paid items, each with its transaction.success or transaction.failed above.
      executedItems: 3,
    });
    expect(new Dec(event.paidUsd).eq(settled)).toBe(true);
    // It comes after every item's own events, and those name their batch and item.
    expect(events.rows.at(-1)?.event_type).toBe("batch.completed");
    for (const row of events.rows.filter((r) => r.tx_id !== null)) {
      const txEvent = fromBinary(TransactionEventSchema, row.payload);
      expect(txEvent.batchId).toBe(done.batchId);
      expect(items.get(txEvent.itemRef)?.txId).toBe(txEvent.txId);
    }

    // A retry holds exactly the failed and the excluded items, validated afresh; paid ones are never copied.
    const retry = await batches.retryFailedItems({
      partnerId: partner.partnerId,
      batchId: done.batchId,
      idempotencyKey: "retry-1",
      requestFingerprint: fp("r1"),
    });
    expect(retry.batch?.parentBatchId).toBe(done.batchId);
    const replay = await batches.retryFailedItems({
      partnerId: partner.partnerId,
      batchId: done.batchId,
      idempotencyKey: "retry-1",
      requestFingerprint: fp("r1"),
    });
    expect(replay).toMatchObject({ replayed: true, batch: { batchId: retry.batch?.batchId } });
    const child = await itemsOf(partner.partnerId, retry.batch?.batchId ?? "");
    expect([...child.keys()]).toEqual(["fails", "mismatch"]);
    expect(child.get("mismatch")?.input?.expectedName).toBe("Nobody Atall");
    // The create key replays the same batch.
    const created = await batches.createBatch({
      partnerId: partner.partnerId,
      items: [],
      idempotencyKey: "bulk-happy",
      requestFingerprint: fp("f1"),
    });
    expect(created).toMatchObject({ replayed: true, batch: { batchId: done.batchId } });
    const reused = await reasonOf(
      batches.createBatch({
        partnerId: partner.partnerId,
        items: [],
        idempotencyKey: "bulk-happy",
        requestFingerprint: fp("f2"),
      }),
    );
    expect(reused.reason).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("creates one batch for concurrent requests with one key", async () => {
    const partner = await newPartner();
    const request = {
      partnerId: partner.partnerId,
      items: [item(partner, "a", { ...BR, paymentDestination: "52998224725" }, "10")],
      idempotencyKey: "same-key",
      requestFingerprint: fp("same request"),
    };
    const answers = await Promise.allSettled(Array.from({ length: 5 }, () => batches.createBatch(request)));
    const created = answers.flatMap((a) => (a.status === "fulfilled" ? [a.value.batch?.batchId] : []));
    const refused = answers.flatMap((a) =>
      a.status === "rejected" ? [errorDetailOf(a.reason)?.reason] : [],
    );
    expect(new Set(created).size).toBe(1);
    expect(refused.every((r) => r === "IDEMPOTENCY_KEY_IN_USE")).toBe(true);
    const { batches: listed } = await batches.listBatches({ partnerId: partner.partnerId });
    expect(listed.map((b) => b.batchId)).toEqual(created.slice(0, 1));
  });
});

describe("the fan-out survives a crash", () => {
  it("re-claims the items a dead worker held, and pays each exactly once", async () => {
    const partner = await newPartner();
    const refs = ["c1", "c2", "c3"];
    const { batch } = await batches.createBatch({
      partnerId: partner.partnerId,
      items: refs.map((r, i) => item(partner, r, { ...BR, paymentDestination: "52998224725" }, `${10 + i}`)),
    });
    const done = await validated(partner.partnerId, batch?.batchId ?? "");
    await credit(partner.partnerId, "500.00");
    // A worker claimed every item's payout and died holding the lease: its rows are leased, not done.
    await platform.runtime.db.query(
      `INSERT INTO ledger.batch_work (batch_id, item_ref, kind, attempts, available_at, lease_until)
       SELECT $1, r, 'execute', 1, now(), now() + make_interval(secs => $3::float8 / 1000)
         FROM unnest($2::text[]) AS r`,
      [done.batchId, refs, LEASE_MS],
    );
    await batches.approveBatch({ partnerId: partner.partnerId, batchId: done.batchId, approverId: "key_1" });
    // While the dead worker's lease lasts, nobody pays its items.
    const held = await itemsOf(partner.partnerId, done.batchId);
    expect([...held.values()].map((i) => i.status)).toEqual(refs.map(() => BatchItemStatus.PENDING));
    await waitFor(
      "batch completed after the lease expired",
      async () => {
        const { batch: b } = await batches.getBatch({ partnerId: partner.partnerId, batchId: done.batchId });
        return b?.status === BatchStatus.COMPLETED ? b : undefined;
      },
      30_000,
    );
    const items = await itemsOf(partner.partnerId, done.batchId);
    const txIds = [...items.values()].map((i) => i.txId);

    // A stale claim of an already paid item (a second worker after the first committed) does nothing.
    await platform.runtime.db.query(
      `INSERT INTO ledger.batch_work (batch_id, item_ref, kind, available_at) VALUES ($1, 'c1', 'execute', now())`,
      [done.batchId],
    );
    await waitFor("the stale work row consumed", async () => {
      const res = await platform.runtime.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM ledger.batch_work WHERE batch_id = $1",
        [done.batchId],
      );
      return res.rows[0]?.n === 0;
    });
    const debits = await platform.runtime.db.query<{ tx_id: string; n: number }>(
      `SELECT tx_id, count(*)::int AS n FROM ledger.movements
        WHERE tx_id = ANY($1::text[]) AND kind IN ('payout', 'batch_payout') GROUP BY tx_id ORDER BY tx_id`,
      [txIds],
    );
    expect(debits.rows.map((r) => r.n)).toEqual([1, 1, 1]);
    const completions = await platform.runtime.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger.outbox WHERE event_key = $1 AND event_type = 'batch.completed'",
      [done.batchId],
    );
    expect(completions.rows[0]?.n).toBe(1);
    expect(await account(partner.partnerId, "reservation")).toBe("0");
  });
});

describe("before funding", () => {
  it("replaces and removes items, revalidates, and starts a new approval round", async () => {
    const partner = await newPartner();
    const first = await validatedBatch({
      partnerId: partner.partnerId,
      requiredApprovals: 2,
      items: [
        item(partner, "a", { ...BR, paymentDestination: "52998224725" }, "10"),
        item(partner, "b", { ...BR, paymentDestination: "52998224724" }, "10"),
      ],
    });
    expect(first.counts).toMatchObject({ pending: 1, invalid: 1 });
    const items = await itemsOf(partner.partnerId, first.batchId);
    expect(first.expiresAt?.seconds).toBe(items.get("a")?.quote?.expiresAt?.seconds);
    await batches.approveBatch({ partnerId: partner.partnerId, batchId: first.batchId, approverId: "key_1" });

    const put = await batches.putBatchItems({
      partnerId: partner.partnerId,
      batchId: first.batchId,
      items: [item(partner, "b", { ...NG, paymentDestination: "0000000018" }, "15000")],
    });
    expect(put.batch?.status).toBe(BatchStatus.VALIDATING);
    const again = await validated(partner.partnerId, first.batchId);
    expect(again.counts).toMatchObject({ total: 2, pending: 2, invalid: 0 });
    // Approvals of the items as they were no longer count: the same credential approves the new round.
    expect(again.approvals).toEqual([]);
    const after = await itemsOf(partner.partnerId, first.batchId);
    expect(after.get("b")?.rowNumber).toBe(2);
    expect(after.get("b")?.status).toBe(BatchItemStatus.PENDING);

    const removed = await batches.removeBatchItems({
      partnerId: partner.partnerId,
      batchId: first.batchId,
      itemRefs: ["a"],
    });
    expect(removed.batch?.counts?.total).toBe(1);
    await validated(partner.partnerId, first.batchId);
    const approved = await batches.approveBatch({
      partnerId: partner.partnerId,
      batchId: first.batchId,
      approverId: "key_1",
    });
    expect(approved.batch?.status).toBe(BatchStatus.AWAITING_APPROVAL);
  });

  it("cancels before funding only, and refuses a duplicate upload naming the first batch", async () => {
    const partner = await newPartner();
    const sha = fp("the uploaded file");
    const { batch } = await batches.createBatch({
      partnerId: partner.partnerId,
      contentSha256: sha,
      source: "csv",
      items: [item(partner, "a", { ...BR, paymentDestination: "52998224725" }, "10")],
    });
    const duplicate = await reasonOf(
      batches.createBatch({
        partnerId: partner.partnerId,
        contentSha256: sha,
        items: [item(partner, "a", { ...BR, paymentDestination: "52998224725" }, "10")],
      }),
    );
    expect(duplicate).toEqual({ reason: "BATCH_DUPLICATE", metadata: { batch_id: batch?.batchId } });
    const done = await validated(partner.partnerId, batch?.batchId ?? "");
    const cancelled = await batches.cancelBatch({
      partnerId: partner.partnerId,
      batchId: done.batchId,
      reason: "wrong file",
    });
    expect(cancelled.batch).toMatchObject({ status: BatchStatus.CANCELLED, cancelReason: "wrong file" });
    expect(cancelled.batch?.counts).toMatchObject({ cancelled: 1, pending: 0 });
    expect(
      (
        await reasonOf(
          batches.approveBatch({ partnerId: partner.partnerId, batchId: done.batchId, approverId: "k" }),
        )
      ).reason,
    ).toBe("BATCH_NOT_VALIDATED");
    expect(
      (
        await reasonOf(
          batches.putBatchItems({ partnerId: partner.partnerId, batchId: done.batchId, items: [] }),
        )
      ).reason,
    ).toBe("MISSING_REQUIRED_FIELD");
    expect(
      (
        await reasonOf(
          batches.removeBatchItems({ partnerId: partner.partnerId, batchId: done.batchId, itemRefs: ["a"] }),
        )
      ).reason,
    ).toBe("BATCH_NOT_EDITABLE");
    // Another partner's batch does not exist for this one.
    const other = await newPartner();
    expect(
      (await reasonOf(batches.getBatch({ partnerId: other.partnerId, batchId: done.batchId }))).reason,
    ).toBe("BATCH_NOT_FOUND");
  });

  it("keeps a batch with nothing to pay from approval and expires it after the pending TTL", async () => {
    const partner = await newPartner();
    const done = await validatedBatch({
      partnerId: partner.partnerId,
      items: [
        item(partner, "bad-digit", { ...BR, paymentDestination: "52998224724" }, "10"),
        item(partner, "bad-amount", { ...BR, paymentDestination: "52998224725" }, "-5"),
      ],
    });
    expect(done.counts).toMatchObject({ invalid: 2, pending: 0 });
    // Not VALIDATED for good: it expires PENDING_TTL_MS (a day by default) after validation.
    const validatedAt = Number(done.validatedAt?.seconds ?? 0n) * 1000;
    expect(Number(done.expiresAt?.seconds ?? 0n) * 1000 - validatedAt).toBeGreaterThan(86_400_000 - 2_000);
    await credit(partner.partnerId, "100.00");
    const refusal = await reasonOf(
      batches.approveBatch({ partnerId: partner.partnerId, batchId: done.batchId, approverId: "key_1" }),
    );
    expect(refusal.reason).toBe("BATCH_NOT_VALIDATED");
    const after = await batches.getBatch({ partnerId: partner.partnerId, batchId: done.batchId });
    expect(after.batch).toMatchObject({ status: BatchStatus.VALIDATED, approvals: [] });
    await platform.runtime.db.query(
      "UPDATE ledger.batches SET expires_at = now() - interval '1 second' WHERE batch_id = $1",
      [done.batchId],
    );
    await waitFor("batch expired", async () => {
      const { batch: b } = await batches.getBatch({ partnerId: partner.partnerId, batchId: done.batchId });
      return b?.status === BatchStatus.EXPIRED ? b : undefined;
    });
    expect(await account(partner.partnerId, "reservation")).toBe("0");
  });

  it("expires a validated batch nobody approved in time: items CANCELLED, approval refused", async () => {
    const partner = await newPartner();
    const done = await validatedBatch({
      partnerId: partner.partnerId,
      items: [item(partner, "a", { ...BR, paymentDestination: "52998224725" }, "10")],
    });
    // Its first quote's expiry, brought forward.
    await platform.runtime.db.query(
      "UPDATE ledger.batches SET expires_at = now() - interval '1 second' WHERE batch_id = $1",
      [done.batchId],
    );
    await credit(partner.partnerId, "100.00");
    const expired = await waitFor("batch expired", async () => {
      const { batch: b } = await batches.getBatch({ partnerId: partner.partnerId, batchId: done.batchId });
      return b?.status === BatchStatus.EXPIRED ? b : undefined;
    });
    expect(expired.counts).toMatchObject({ cancelled: 1, pending: 0 });
    expect(
      (
        await reasonOf(
          batches.approveBatch({ partnerId: partner.partnerId, batchId: done.batchId, approverId: "k" }),
        )
      ).reason,
    ).toBe("BATCH_EXPIRED");
    expect(await account(partner.partnerId, "reservation")).toBe("0");
  });
});

describe("completion", () => {
  it("pays every funded item exactly once at its quote even when every quote expired before the fan-out", async () => {
    const partner = await newPartner();
    const refs = ["q1", "q2", "q3", "q4"];
    const done = await validatedBatch({
      partnerId: partner.partnerId,
      items: refs.map((r, i) =>
        item(partner, r, { ...BR, paymentDestination: "52998224725" }, `${11 + i}.5`),
      ),
    });
    await credit(partner.partnerId, "500.00");
    const start = new Dec(await account(partner.partnerId, "balance"));
    // The fan-out is held up (a dead worker's lease) while, after funding, every quote and even the pending
    // TTL of every item's transaction run out.
    await platform.runtime.db.query(
      `INSERT INTO ledger.batch_work (batch_id, item_ref, kind, attempts, available_at, lease_until)
       SELECT $1, r, 'execute', 1, now(), now() + make_interval(secs => $3::float8 / 1000)
         FROM unnest($2::text[]) AS r`,
      [done.batchId, refs, LEASE_MS],
    );
    await batches.approveBatch({ partnerId: partner.partnerId, batchId: done.batchId, approverId: "key_1" });
    const funded = await itemsOf(partner.partnerId, done.batchId);
    const txIds = refs.map((r) => funded.get(r)?.txId ?? "");
    await platform.runtime.db.query(
      `UPDATE ledger.transactions SET quote_expires_at = now() - interval '1 second',
              pending_expires_at = now() - interval '1 second' WHERE tx_id = ANY($1::text[])`,
      [txIds],
    );
    const completed = await completedBatch(partner.partnerId, done.batchId);
    const after = await itemsOf(partner.partnerId, done.batchId);
    expect(refs.map((r) => after.get(r)?.status)).toEqual(refs.map(() => BatchItemStatus.SUCCESS));
    expect(completed.releasedUsd).toBe("0");
    // One debit per item, of exactly the total its quote reserved.
    const debits = await platform.runtime.db.query<{ tx_id: string; n: number; debited: string }>(
      `SELECT m.tx_id, count(*)::int AS n, sum(e.amount)::text AS debited
         FROM ledger.movements m JOIN ledger.entries e ON e.movement_id = m.movement_id AND e.kind = 'in_flight'
        WHERE m.tx_id = ANY($1::text[]) AND m.kind IN ('payout', 'batch_payout') GROUP BY m.tx_id`,
      [txIds],
    );
    const byTx = new Map(debits.rows.map((r) => [r.tx_id, r]));
    for (const ref of refs) {
      const paid = byTx.get(funded.get(ref)?.txId ?? "");
      expect(paid?.n, ref).toBe(1);
      expect(new Dec(paid?.debited ?? "0").eq(funded.get(ref)?.totalUsd ?? "-1"), ref).toBe(true);
    }
    const total = refs.reduce((sum, r) => sum.plus(funded.get(r)?.totalUsd ?? "0"), new Dec(0));
    expect(new Dec(await account(partner.partnerId, "balance")).eq(start.minus(total))).toBe(true);
    expect(await account(partner.partnerId, "reservation")).toBe("0");
  });

  it("releases what an unpaid item reserved back to the balance, exactly", async () => {
    const partner = await newPartner();
    const done = await validatedBatch({
      partnerId: partner.partnerId,
      items: [
        item(partner, "paid", { ...BR, paymentDestination: "52998224725" }, "10.01"),
        item(partner, "late", { ...BR, paymentDestination: "52998224725" }, "20.02"),
      ],
    });
    await credit(partner.partnerId, "100.00");
    const start = new Dec(await account(partner.partnerId, "balance"));
    // One item's transaction passed its pending TTL and the sweeper expired it before the batch was funded.
    const before = await itemsOf(partner.partnerId, done.batchId);
    await platform.runtime.db.query(
      "UPDATE ledger.transactions SET pending_expires_at = now() - interval '1 second' WHERE tx_id = $1",
      [before.get("late")?.txId],
    );
    await waitFor("the late item's transaction expired", async () => {
      const res = await platform.runtime.db.query<{ status: string }>(
        "SELECT status FROM ledger.transactions WHERE tx_id = $1",
        [before.get("late")?.txId],
      );
      return res.rows[0]?.status === "EXPIRED";
    });
    await batches.approveBatch({ partnerId: partner.partnerId, batchId: done.batchId, approverId: "key_1" });
    const items = await itemsOf(partner.partnerId, done.batchId);
    const completed = await completedBatch(partner.partnerId, done.batchId);
    const after = await itemsOf(partner.partnerId, done.batchId);
    expect(after.get("paid")?.status).toBe(BatchItemStatus.SUCCESS);
    expect(after.get("late")).toMatchObject({ status: BatchItemStatus.FAILED });
    expect(after.get("late")?.failureReason).toMatch(/TRANSACTION_NOT_PENDING/);
    expect(completed.releasedUsd).toBe(new Dec(items.get("late")?.totalUsd ?? "0").toFixed());
    // The batch event counts only the paid item as one whose transaction event a consumer should await.
    const outbox = await platform.runtime.db.query<{ payload: Uint8Array }>(
      "SELECT payload FROM ledger.outbox WHERE event_key = $1 AND event_type = 'batch.completed'",
      [done.batchId],
    );
    expect(outbox.rows.map((r) => fromBinary(BatchEventSchema, r.payload))).toMatchObject([
      { failed: 1, succeeded: 1, executedItems: 1 },
    ]);
    expect(await account(partner.partnerId, "reservation")).toBe("0");
    expect(
      new Dec(await account(partner.partnerId, "balance")).eq(
        start.minus(items.get("paid")?.totalUsd ?? "0"),
      ),
    ).toBe(true);
  });
});
