/**
 * Stuck payouts, on the ledger service and real PostgreSQL with a scripted rail:
 * a PROCESSING payout the rail never accepted is failed with the reversal of its debit after
 * PROCESSING_TIMEOUT_MS, exactly once and with its event — but only once the rail confirmed it will not
 * pay it; a payout the rail has (acknowledged, or taken with the answer lost) is left to the rail's
 * verdict. FailTransaction does the same by hand, with `force` for a rail that cannot answer.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  destination,
  freshKey,
  type LedgerClient,
  type LedgerHarness,
  quote,
  reasonOf,
  startLedgerHarness,
  waitFor,
} from "./support/ledger-harness.js";
import { assertLedgerInvariants, balanceOf } from "./support/ledger-invariants.js";

const TIMEOUT_MS = 800;
const ALWAYS = 1_000_000;

let h: LedgerHarness;
let ops: LedgerHarness;
let seq = 0;
const partner = () => `ptr_stuck_${++seq}`;

beforeAll(async () => {
  h = await startLedgerHarness({ PROCESSING_TIMEOUT_MS: String(TIMEOUT_MS) });
  // The default timeout (30 minutes): only operators fail payouts here.
  ops = await startLedgerHarness();
});
afterAll(async () => {
  for (const harness of [h, ops]) {
    await assertLedgerInvariants(harness.db);
    await harness.close();
  }
});

/** A funded partner with one PROCESSING payout of 10.45 USD (10 + 0.15 + 0.30) out of 100. */
async function executed(harness: LedgerHarness, p: string): Promise<string> {
  await harness.client.creditBalance({ partnerId: p, amountUsd: "100", reference: "r", ...freshKey() });
  const created = await harness.client.createTransaction({ partnerId: p, destination: destination() });
  const txId = created.transaction!.txId;
  await harness.quoteWith({ partnerId: p, txId, quote: quote("10", "0.15", "0.3") });
  const res = await harness.client.executePayout({
    partnerId: p,
    txId,
    idempotencyKey: `k-${txId}`,
    requestFingerprint: "1".repeat(64),
  });
  expect(res.transaction?.status).toBe(TransactionStatus.PROCESSING);
  partnerOf.set(txId, p);
  return txId;
}

/** The partner of each payout executed here (reads are partner-scoped). */
const partnerOf = new Map<string, string>();

const statusOf = async (client: LedgerClient, txId: string) =>
  (await client.getTransaction({ partnerId: partnerOf.get(txId) ?? "", txId, includeHistory: true }))
    .transaction!;

const untilStatus = (client: LedgerClient, txId: string, status: TransactionStatus) =>
  waitFor(`${txId} ${TransactionStatus[status]}`, async () => {
    const tx = await statusOf(client, txId);
    return tx.status === status ? tx : undefined;
  });

async function railRow(harness: LedgerHarness, txId: string) {
  const res = await harness.db.query<{ rail_submitted_at: Date | null; provider_reference: string }>(
    "SELECT rail_submitted_at, provider_reference FROM ledger.transactions WHERE tx_id = $1",
    [txId],
  );
  return res.rows[0]!;
}

async function movementsOf(harness: LedgerHarness, txId: string): Promise<string[]> {
  const res = await harness.db.query<{ kind: string }>(
    "SELECT kind FROM ledger.movements WHERE tx_id = $1 ORDER BY created_at, kind",
    [txId],
  );
  return res.rows.map((r) => r.kind);
}

const eventsOf = (harness: LedgerHarness, txId: string) =>
  harness.published.filter((m) => m.key === txId).map((m) => m.headers["event-type"]);

describe("PROCESSING_TIMEOUT_MS", () => {
  it("fails and reverses, once and with its event, a payout the rail never accepted; never one it acknowledged", async () => {
    const p = partner();
    const acknowledged = await executed(h, p);
    await waitFor(
      "acknowledgement",
      async () => (await railRow(h, acknowledged)).rail_submitted_at ?? undefined,
    );

    h.failNextSubmissions(ALWAYS);
    try {
      const q = partner();
      const never = await executed(h, q);
      expect(await balanceOf(h.db, q)).toBe("89.55");
      const failed = await untilStatus(h.client, never, TransactionStatus.FAILED);

      expect(failed.failureReason).toBe("not accepted by the payout rail in time");
      const [pending, processing, final] = failed.history;
      expect([pending?.to, processing?.to, final?.to]).toEqual([
        TransactionStatus.PENDING,
        TransactionStatus.PROCESSING,
        TransactionStatus.FAILED,
      ]);
      const waitedMs = timestampDate(final!.at!).getTime() - timestampDate(processing!.at!).getTime();
      expect(waitedMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
      expect(h.cancellations).toContain(never);
      expect(await balanceOf(h.db, q)).toBe("100");
      expect(await balanceOf(h.db, q, "in_flight")).toBe("0");
      expect(await movementsOf(h, never)).toEqual(["payout", "reversal"]);
      await waitFor("failed event", () => eventsOf(h, never).includes("transaction.failed") || undefined);
      expect(eventsOf(h, never).filter((t) => t === "transaction.failed")).toHaveLength(1);

      // The job passed the acknowledged payout's deadline too, and left it to the rail's verdict.
      expect((await statusOf(h.client, acknowledged)).status).toBe(TransactionStatus.PROCESSING);
      expect(h.cancellations).not.toContain(acknowledged);
      expect(await balanceOf(h.db, p)).toBe("89.55");
    } finally {
      h.failNextSubmissions(0);
    }
    const settled = await h.client.recordRailResult({ txId: acknowledged, outcome: "SUCCESS" });
    expect(settled.transaction?.status).toBe(TransactionStatus.SUCCESS);
  });

  it("leaves PROCESSING a payout the rail took although its answer was lost, and stops resubmitting it", async () => {
    h.loseNextSubmissionAnswers(ALWAYS);
    const p = partner();
    let txId = "";
    try {
      txId = await executed(h, p);
      await waitFor("cancellation asked", () => h.cancellations.includes(txId) || undefined);
      const row = await waitFor("marked submitted", async () => {
        const r = await railRow(h, txId);
        return r.rail_submitted_at ? r : undefined;
      });
      expect(row.provider_reference).toBe(`prv_${txId}`);
    } finally {
      h.loseNextSubmissionAnswers(0);
    }
    const tx = await statusOf(h.client, txId);
    expect(tx.status).toBe(TransactionStatus.PROCESSING);
    expect(await balanceOf(h.db, p)).toBe("89.55");
    expect(await movementsOf(h, txId)).toEqual(["payout"]);
    // The rail's verdict still decides.
    const failed = await h.client.recordRailResult({ txId, outcome: "FAILED", reason: "bank closed" });
    expect([failed.changed, failed.transaction?.status]).toEqual([true, TransactionStatus.FAILED]);
    expect(await balanceOf(h.db, p)).toBe("100");
  });

  it("fails nothing while the rail does not answer the cancellation, and fails it once the rail answers", async () => {
    h.failNextSubmissions(ALWAYS);
    h.failNextCancellations(ALWAYS);
    const p = partner();
    try {
      const txId = await executed(h, p);
      await new Promise((r) => setTimeout(r, 20));
      const younger = await executed(h, partner());
      await waitFor("three unanswered cancellations", () =>
        h.cancellations.filter((id) => id === txId).length >= 3 ? true : undefined,
      );
      expect((await statusOf(h.client, txId)).status).toBe(TransactionStatus.PROCESSING);
      expect(await balanceOf(h.db, p)).toBe("89.55");
      // A pass stops at the first unanswered question: the younger payout waits its turn, oldest first.
      expect(h.cancellations).not.toContain(younger);
      h.failNextCancellations(0);
      await untilStatus(h.client, txId, TransactionStatus.FAILED);
      await untilStatus(h.client, younger, TransactionStatus.FAILED);
      expect(await balanceOf(h.db, p)).toBe("100");
      expect(await movementsOf(h, txId)).toEqual(["payout", "reversal"]);
    } finally {
      h.failNextSubmissions(0);
      h.failNextCancellations(0);
    }
  });
});

describe("FailTransaction (operators)", () => {
  it("refuses what is not PROCESSING, and a reason is required", async () => {
    expect(await reasonOf(ops.client.failTransaction({ txId: "tx_nope", reason: "x" }))).toBe(
      "TRANSACTION_NOT_FOUND",
    );
    const p = partner();
    const created = await ops.client.createTransaction({ partnerId: p, destination: destination() });
    const pending = created.transaction!.txId;
    expect(await reasonOf(ops.client.failTransaction({ txId: pending, reason: "stuck" }))).toBe(
      "TRANSACTION_NOT_PROCESSING",
    );
    const txId = await executed(ops, p);
    expect(await reasonOf(ops.client.failTransaction({ txId, reason: "  " }))).toBe("MISSING_REQUIRED_FIELD");
    await ops.client.recordRailResult({ txId, outcome: "SUCCESS" });
    expect(await reasonOf(ops.client.failTransaction({ txId, reason: "stuck", force: true }))).toBe(
      "TRANSACTION_NOT_PROCESSING",
    );
    expect(await movementsOf(ops, txId)).toEqual(["payout", "settlement"]);
  });

  it("refuses a payout the rail has, unless forced; a forced failure reverses once", async () => {
    const p = partner();
    const txId = await executed(ops, p);
    await waitFor("acknowledgement", async () => (await railRow(ops, txId)).rail_submitted_at ?? undefined);
    expect(await reasonOf(ops.client.failTransaction({ txId, reason: "stuck" }))).toBe(
      "PAYOUT_ACCEPTED_BY_RAIL",
    );
    expect((await statusOf(ops.client, txId)).status).toBe(TransactionStatus.PROCESSING);
    expect(await balanceOf(ops.db, p)).toBe("89.55");

    const forced = await ops.client.failTransaction({
      txId,
      reason: "provider confirmed: not paid",
      force: true,
    });
    expect(forced.transaction?.status).toBe(TransactionStatus.FAILED);
    expect(forced.transaction?.failureReason).toBe("provider confirmed: not paid");
    expect(await balanceOf(ops.db, p)).toBe("100");
    expect(await reasonOf(ops.client.failTransaction({ txId, reason: "again", force: true }))).toBe(
      "TRANSACTION_NOT_PROCESSING",
    );
    expect(await movementsOf(ops, txId)).toEqual(["payout", "reversal"]);
    await waitFor("failed event", () => eventsOf(ops, txId).includes("transaction.failed") || undefined);
    expect(eventsOf(ops, txId).filter((t) => t === "transaction.failed")).toHaveLength(1);
  });

  it("a forced failure still cancels at the rail, so a submission arriving later is refused, not paid", async () => {
    ops.failNextSubmissions(ALWAYS);
    const p = partner();
    try {
      const txId = await executed(ops, p);
      const forced = await ops.client.failTransaction({ txId, reason: "provider: never paid", force: true });
      expect(forced.transaction?.status).toBe(TransactionStatus.FAILED);
      expect(ops.cancellations.filter((id) => id === txId)).toHaveLength(1);
      expect(await balanceOf(ops.db, p)).toBe("100");
    } finally {
      ops.failNextSubmissions(0);
    }
  });

  it("fails a payout the rail never took once the rail confirms; a rail that does not answer is unavailable", async () => {
    ops.failNextSubmissions(ALWAYS);
    const p = partner();
    try {
      const txId = await executed(ops, p);
      ops.failNextCancellations(1);
      expect(await reasonOf(ops.client.failTransaction({ txId, reason: "stuck" }))).toBe(
        "SERVICE_UNAVAILABLE",
      );
      expect((await statusOf(ops.client, txId)).status).toBe(TransactionStatus.PROCESSING);
      const failed = await ops.client.failTransaction({ txId, reason: "stuck before the rail" });
      expect(failed.transaction?.status).toBe(TransactionStatus.FAILED);
      expect(failed.transaction?.failureReason).toBe("stuck before the rail");
      expect(ops.cancellations.filter((id) => id === txId)).toHaveLength(2);
      expect(await balanceOf(ops.db, p)).toBe("100");
    } finally {
      ops.failNextSubmissions(0);
      ops.failNextCancellations(0);
    }
  });
});
