/**
 * Four-eyes approvals over HTTP on the whole platform with real PostgreSQL: a credit above the threshold,
 * a refund and a forced failure are stored as approval requests (202) instead of acting; the same key and
 * body replay the request; the requester cannot approve it; a rejected or expired request has no effect;
 * an approval interrupted between its claim and its outcome is carried out again exactly once.
 */

import type { AdminActor } from "@payouts/gateway/internal/admin/admin-actor";
import { approveRequest } from "@payouts/gateway/internal/admin/approval-admin-routes";
import { redriveStaleApprovals } from "@payouts/gateway/internal/admin/approval-execution";
import type { Database } from "@payouts/platform/database/database";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  balance,
  executePayout,
  fundedPartner,
  type Partner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "../ledger/support/payout-fixtures.js";
import { callJson } from "../support/call-json.js";
import { createMachineToken, operatorCookie, withCookie } from "../support/operator-session.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read in assertions
type Json = any;

describe("four-eyes approvals", () => {
  let platform: TestPlatform;
  let db: Database;
  let partner: Partner;

  const credit = (amountUsd: string, key: string, reference = "wire 1", partnerId = partner.partnerId) =>
    platform.admin(
      "POST",
      `/admin/partners/${partnerId}/balance/credits`,
      { amount_usd: amountUsd, reference },
      { "X-Idempotency-Key": key },
    );
  const creditMovements = async (reference: string) =>
    (
      await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM ledger.movements WHERE partner_id = $1 AND kind = 'credit' AND reference = $2",
        [partner.partnerId, reference],
      )
    ).rows[0]?.n;

  beforeAll(async () => {
    platform = await startTestPlatform({
      env: { FOUR_EYES_APPROVALS: "true", FOUR_EYES_CREDIT_THRESHOLD_USD: "1000", QUOTE_TTL_MS: "600000" },
    });
    db = createPgDatabase({ connectionString: platform.databaseUrl, maxConnections: 2 });
    await setUpCorridor(platform);
    partner = await fundedPartner(platform, "100");
  });
  afterAll(async () => {
    await db?.close();
    await platform?.close();
  });

  it("carries out a credit at or below the threshold at once (201, as without four-eyes)", async () => {
    const before = await balance(platform, partner.partnerId);
    const res = await credit("1000", "small-1", "small wire");
    expect(res.status, res.text).toBe(201);
    expect(res.json.balance_usd).toBe(String(Number(before) + 1000));
    expect(await creditMovements("small wire")).toBe("1");
  });

  it("stores a credit above the threshold as a PENDING approval request (202) and moves no money", async () => {
    const before = await balance(platform, partner.partnerId);
    const res = await credit("1500.50", "big-1", "big wire");
    expect(res.status, res.text).toBe(202);
    expect(res.json).toMatchObject({
      action: "BALANCE_CREDIT",
      target: { partner_id: partner.partnerId, tx_id: null },
      amount_usd: "1500.5",
      request: { amount_usd: "1500.50", reference: "big wire" },
      requested_by: { id: "mc_admin_token", kind: "machine" },
      status: "PENDING",
      decided_by: null,
      outcome: null,
      approval_refusal: "APPROVAL_BY_REQUESTER",
    });
    expect(res.json.approval_id).toMatch(/^apr_/);
    const ttl = Date.parse(res.json.expires_at) - Date.parse(res.json.created_at);
    expect(ttl).toBe(86_400_000);
    expect(await balance(platform, partner.partnerId)).toBe(before);
    expect(await creditMovements("big wire")).toBe("0");

    const inbox = await platform.admin("GET", "/admin/approvals?status=PENDING");
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.json.approvals.map((a: Json) => a.approval_id)).toContain(res.json.approval_id);
    const one = await platform.admin("GET", `/admin/approvals/${res.json.approval_id}`);
    expect(one.json).toEqual(res.json);
  });

  it("replays the request for the same key and body, and refuses the key with another body", async () => {
    const first = await credit("2000", "replay-1", "replayed wire");
    expect(first.status, first.text).toBe(202);
    const again = await credit("2000.00", "replay-1", "replayed wire");
    expect(again.status, again.text).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.approval_id).toBe(first.json.approval_id);
    const other = await credit("2001", "replay-1", "replayed wire");
    expect(other.status, other.text).toBe(422);
    expect(other.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
    // Below the threshold the key is still the pending request's: it does not credit directly.
    const small = await credit("5", "replay-1", "replayed wire");
    expect(small.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await creditMovements("replayed wire")).toBe("0");
    const pending = await platform.admin("GET", "/admin/approvals?status=PENDING&limit=100");
    const forKey = pending.json.approvals.filter((a: Json) => a.request.reference === "replayed wire");
    expect(forKey).toHaveLength(1);
  });

  it("refuses the requester's own approval with APPROVAL_BY_REQUESTER and moves no money", async () => {
    const before = await balance(platform, partner.partnerId);
    const req = await credit("3000", "self-1", "self wire");
    const approve = await platform.admin("POST", `/admin/approvals/${req.json.approval_id}/approve`);
    expect(approve.status, approve.text).toBe(403);
    expect(approve.json.code).toBe("APPROVAL_BY_REQUESTER");
    const after = await platform.admin("GET", `/admin/approvals/${req.json.approval_id}`);
    expect(after.json.status).toBe("PENDING");
    expect(await balance(platform, partner.partnerId)).toBe(before);
    expect(await creditMovements("self wire")).toBe("0");
  });

  it("rejects a request: no effect, and it can no longer be approved", async () => {
    const before = await balance(platform, partner.partnerId);
    const req = await credit("4000", "reject-1", "rejected wire");
    const missingReason = await platform.admin("POST", `/admin/approvals/${req.json.approval_id}/reject`, {});
    expect(missingReason.status).toBe(400);
    const reject = await platform.admin("POST", `/admin/approvals/${req.json.approval_id}/reject`, {
      reason: "wrong amount",
    });
    expect(reject.status, reject.text).toBe(200);
    expect(reject.json).toMatchObject({
      status: "REJECTED",
      reason: "wrong amount",
      decided_by: { id: "mc_admin_token" },
      outcome: null,
    });
    const approve = await platform.admin("POST", `/admin/approvals/${req.json.approval_id}/approve`);
    expect(approve.status).toBe(409);
    expect(approve.json.code).toBe("APPROVAL_ALREADY_DECIDED");
    expect(await balance(platform, partner.partnerId)).toBe(before);
    expect(await creditMovements("rejected wire")).toBe("0");
  });

  it("lets an expired request do nothing: APPROVAL_EXPIRED, listed as EXPIRED", async () => {
    const before = await balance(platform, partner.partnerId);
    const req = await credit("5000", "expire-1", "expired wire");
    await db.query(
      `UPDATE gateway.approval_requests
       SET created_at = now() - interval '2 days', expires_at = now() - interval '1 second'
       WHERE approval_id = $1`,
      [req.json.approval_id],
    );
    const approve = await platform.admin("POST", `/admin/approvals/${req.json.approval_id}/approve`);
    expect(approve.status, approve.text).toBe(409);
    expect(approve.json.code).toBe("APPROVAL_EXPIRED");
    const reject = await platform.admin("POST", `/admin/approvals/${req.json.approval_id}/reject`, {
      reason: "late",
    });
    expect(reject.json.code).toBe("APPROVAL_EXPIRED");
    const expired = await platform.admin("GET", "/admin/approvals?status=EXPIRED");
    expect(expired.json.approvals.map((a: Json) => a.approval_id)).toContain(req.json.approval_id);
    expect(await balance(platform, partner.partnerId)).toBe(before);
    expect(await creditMovements("expired wire")).toBe("0");
  });

  it("carries out an approval interrupted before its outcome exactly once, with the stored key", async () => {
    const before = Number(await balance(platform, partner.partnerId));
    const req = await credit("6000", "crash-1", "interrupted wire");
    const id = req.json.approval_id;
    // The winning approval claimed the request, then the process stopped before calling the ledger.
    const interrupt = () =>
      db.query(
        `UPDATE gateway.approval_requests
         SET status = 'EXECUTING', outcome = NULL, executed_at = NULL, decided_by_id = 'op_other',
             decided_by_name = 'other', decided_by_kind = 'operator', decided_at = now() - interval '1 minute'
         WHERE approval_id = $1`,
        [id],
      );
    await interrupt();
    const redriven = await platform.admin("GET", `/admin/approvals/${id}`);
    expect(redriven.status, redriven.text).toBe(200);
    expect(redriven.json).toMatchObject({
      status: "APPROVED",
      decided_by: { id: "op_other" },
      outcome: { succeeded: true, http_status: 201, result: { partner_id: partner.partnerId } },
    });
    expect(Number(await balance(platform, partner.partnerId))).toBe(before + 6000);
    expect(await creditMovements("interrupted wire")).toBe("1");

    // Stopped again, this time after the ledger credited but before the outcome was stored: the re-drive
    // replays the ledger's first answer under the same key.
    await interrupt();
    const again = await platform.admin("GET", `/admin/approvals/${id}`);
    expect(again.json.status).toBe("APPROVED");
    expect(again.json.outcome.result).toEqual(redriven.json.outcome.result);
    expect(Number(await balance(platform, partner.partnerId))).toBe(before + 6000);
    expect(await creditMovements("interrupted wire")).toBe("1");
    // A replay of the original request still answers the same approval request.
    const replay = await credit("6000", "crash-1", "interrupted wire");
    expect(replay.status).toBe(202);
    expect(replay.json).toMatchObject({ approval_id: id, status: "APPROVED" });
  });

  it("stores every refund and a forced failure as approval requests; the transactions do not change", async () => {
    const paid = await pendingTransaction(platform, partner.partnerId, { partnerTransactionId: "fe-paid" });
    await quoted(platform, partner, paid);
    expect((await executePayout(platform, partner, paid, `key-${paid}`)).status).toBe(200);
    const settle = await platform.admin("POST", `/admin/sandbox/transactions/${paid}/settle`, {
      outcome: "SUCCESS",
    });
    expect(settle.status, settle.text).toBe(200);
    const refund = await platform.admin("POST", `/admin/transactions/${paid}/refund`, { reason: "dup" });
    expect(refund.status, refund.text).toBe(202);
    expect(refund.json).toMatchObject({
      action: "REFUND",
      target: { partner_id: partner.partnerId, tx_id: paid },
      request: { reason: "dup" },
      status: "PENDING",
    });
    expect(Number(refund.json.amount_usd)).toBeGreaterThan(0);
    const tx = await platform.admin("GET", `/admin/transactions/${paid}`);
    expect(tx.json.status).toBe("SUCCESS");

    const missing = await platform.admin("POST", "/admin/transactions/tx_nope/refund", { reason: "x" });
    expect(missing.status).toBe(404);

    const stuck = await pendingTransaction(platform, partner.partnerId, { partnerTransactionId: "fe-stuck" });
    await quoted(platform, partner, stuck);
    expect((await executePayout(platform, partner, stuck, `key-${stuck}`)).status).toBe(200);
    const forced = await platform.admin("POST", `/admin/transactions/${stuck}/fail`, {
      reason: "provider confirmed",
      force: true,
    });
    expect(forced.status, forced.text).toBe(202);
    expect(forced.json).toMatchObject({
      action: "FORCE_FAIL",
      request: { reason: "provider confirmed", force: true },
    });
    expect((await platform.admin("GET", `/admin/transactions/${stuck}`)).json.status).toBe("PROCESSING");
  });
  // Two named operators, as the admin listener's access check would attach them, deciding through the same
  // function the approve route runs.
  const bob: AdminActor = { id: "op_bob", name: "bob", kind: "operator", role: "finance" };
  const carol: AdminActor = { id: "op_carol", name: "carol", kind: "operator", role: "finance" };
  const deps = () => platform.runtime.gateway.adminDeps;

  it("carries out one credit when two operators approve at once (balance and ledger movements)", async () => {
    const before = Number(await balance(platform, partner.partnerId));
    const req = await credit("7000", "race-1", "raced wire");
    const settled = await Promise.allSettled([
      approveRequest(deps(), req.json.approval_id, bob, "race-bob"),
      approveRequest(deps(), req.json.approval_id, carol, "race-carol"),
    ]);
    const won = settled.filter((r) => r.status === "fulfilled");
    const lost = settled.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(["APPROVAL_ALREADY_DECIDED"]);
    const stored = await platform.admin("GET", `/admin/approvals/${req.json.approval_id}`);
    expect(stored.json).toMatchObject({
      status: "APPROVED",
      outcome: { succeeded: true, http_status: 201, result: { partner_id: partner.partnerId } },
    });
    expect([bob.id, carol.id]).toContain(stored.json.decided_by.id);
    expect(Number(await balance(platform, partner.partnerId))).toBe(before + 7000);
    expect(await creditMovements("raced wire")).toBe("1");
    // The requester's replay of the credit answers the approved request; nothing is credited again.
    const replay = await credit("7000", "race-1", "raced wire");
    expect(replay.json).toMatchObject({ approval_id: req.json.approval_id, status: "APPROVED" });
    expect(await creditMovements("raced wire")).toBe("1");
  });

  it("refuses an approver below the finance role, and a machine credential", async () => {
    const req = await credit("8000", "roles-1", "roles wire");
    const viewer: AdminActor = { id: "op_vera", name: "vera", kind: "operator", role: "operator" };
    const script: AdminActor = { id: "mc_script", name: "script", kind: "machine", role: "admin" };
    await expect(approveRequest(deps(), req.json.approval_id, viewer, "r1")).rejects.toMatchObject({
      status: 403,
      code: "APPROVAL_ROLE_REQUIRED",
    });
    await expect(approveRequest(deps(), req.json.approval_id, script, "r2")).rejects.toMatchObject({
      status: 403,
      code: "APPROVAL_BY_MACHINE",
    });
    expect(await creditMovements("roles wire")).toBe("0");
  });

  it("carries an approved refund out once; the sweep records an interrupted one as done", async () => {
    const paid = await pendingTransaction(platform, partner.partnerId, { partnerTransactionId: "fe-refund" });
    await quoted(platform, partner, paid);
    expect((await executePayout(platform, partner, paid, `key-${paid}`)).status).toBe(200);
    await platform.admin("POST", `/admin/sandbox/transactions/${paid}/settle`, { outcome: "SUCCESS" });
    const afterPayout = Number(await balance(platform, partner.partnerId));
    const req = await platform.admin("POST", `/admin/transactions/${paid}/refund`, { reason: "dup" });
    expect(req.status, req.text).toBe(202);
    const approved = await approveRequest(deps(), req.json.approval_id, bob, "refund-bob");
    expect(approved.status).toBe("APPROVED");
    expect(approved.outcome).toMatchObject({ succeeded: true, result: { tx_id: paid, status: "REFUNDED" } });
    const refunded = Number(await balance(platform, partner.partnerId));
    expect(refunded).toBeGreaterThan(afterPayout);

    // Interrupted after the ledger refunded, before the outcome was stored: the sweep re-drives it, the
    // ledger refuses a second refund, and the request is recorded as done — the money moved once.
    await db.query(
      `UPDATE gateway.approval_requests
       SET status = 'EXECUTING', outcome = NULL, executed_at = NULL, decided_at = now() - interval '1 minute'
       WHERE approval_id = $1`,
      [req.json.approval_id],
    );
    await redriveStaleApprovals(deps());
    const swept = await platform.admin("GET", `/admin/approvals/${req.json.approval_id}`);
    expect(swept.json).toMatchObject({
      status: "APPROVED",
      outcome: { succeeded: true, result: { tx_id: paid, status: "REFUNDED" } },
    });
    expect(Number(await balance(platform, partner.partnerId))).toBe(refunded);
    const refunds = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM ledger.movements WHERE tx_id = $1 AND kind = 'refund'",
      [paid],
    );
    expect(refunds.rows[0]?.n).toBe("1");
  });

  it("records the ledger's refusal as the outcome of an approved forced failure", async () => {
    const done = await pendingTransaction(platform, partner.partnerId, { partnerTransactionId: "fe-done" });
    const req = await platform.admin("POST", `/admin/transactions/${done}/fail`, {
      reason: "r",
      force: true,
    });
    expect(req.status, req.text).toBe(202);
    const approved = await approveRequest(deps(), req.json.approval_id, carol, "fail-carol");
    expect(approved.outcome).toMatchObject({
      succeeded: false,
      http_status: 409,
      code: "TRANSACTION_NOT_PROCESSING",
    });
    expect((await platform.admin("GET", `/admin/transactions/${done}`)).json.status).toBe("PENDING");
  });
  describe("over HTTP, with named operators signed in", () => {
    const creditAs = (cookie: string, amountUsd: string, key: string, reference: string) =>
      withCookie(
        platform,
        cookie,
        "POST",
        `/admin/partners/${partner.partnerId}/balance/credits`,
        { amount_usd: amountUsd, reference },
        { headers: { "X-Idempotency-Key": key } },
      );
    const approveAs = (cookie: string, id: string) =>
      withCookie(platform, cookie, "POST", `/admin/approvals/${id}/approve`);

    it("one operator asks, cannot approve; two others approve at once: one 200, one 409, one credit", async () => {
      const [alice, bob, carol] = await Promise.all([
        operatorCookie(platform, "finance"),
        operatorCookie(platform, "finance"),
        operatorCookie(platform, "finance"),
      ]);
      const before = Number(await balance(platform, partner.partnerId));
      const asked = await creditAs(alice, "9000", "http-race-1", "http raced wire");
      expect(asked.status, asked.text).toBe(202);
      expect(asked.json).toMatchObject({
        requested_by: { kind: "operator" },
        approval_refusal: "APPROVAL_BY_REQUESTER",
      });
      const id = asked.json.approval_id;
      const own = await approveAs(alice, id);
      expect([own.status, own.json.code]).toEqual([403, "APPROVAL_BY_REQUESTER"]);
      expect(await creditMovements("http raced wire")).toBe("0");

      // Another operator's view says they may approve it.
      const seen = await withCookie(platform, bob, "GET", `/admin/approvals/${id}`);
      expect(seen.json.approval_refusal).toBeNull();
      // The same key and body from another operator is not a replay of Alice's request.
      const borrowed = await creditAs(bob, "9000", "http-race-1", "http raced wire");
      expect([borrowed.status, borrowed.json.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);

      const answers = await Promise.all([approveAs(bob, id), approveAs(carol, id)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const won = answers.find((a) => a.status === 200)!;
      const lost = answers.find((a) => a.status === 409)!;
      expect(lost.json.code).toBe("APPROVAL_ALREADY_DECIDED");
      expect(won.json).toMatchObject({
        status: "APPROVED",
        decided_by: { kind: "operator" },
        outcome: { succeeded: true, http_status: 201, result: { partner_id: partner.partnerId } },
      });
      expect(Number(await balance(platform, partner.partnerId))).toBe(before + 9000);
      expect(await creditMovements("http raced wire")).toBe("1");
    });

    it("refuses a machine credential's approval, a role below finance, and a viewer at the route", async () => {
      const [alice, plainOperator, viewer] = await Promise.all([
        operatorCookie(platform, "finance"),
        operatorCookie(platform, "operator"),
        operatorCookie(platform, "viewer"),
      ]);
      const machine = await createMachineToken(platform, "admin");
      const asked = await creditAs(alice, "9500", "http-roles-1", "http roles wire");
      const id = asked.json.approval_id;
      const byMachine = await callJson(`${platform.adminUrl}/admin/approvals/${id}/approve`, "POST", {
        authorization: `Bearer ${machine}`,
      });
      expect([byMachine.status, byMachine.json.code]).toEqual([403, "APPROVAL_BY_MACHINE"]);
      const byOperator = await approveAs(plainOperator, id);
      expect([byOperator.status, byOperator.json.code]).toEqual([403, "APPROVAL_ROLE_REQUIRED"]);
      const byViewer = await approveAs(viewer, id);
      expect([byViewer.status, byViewer.json.code]).toEqual([403, "ROLE_FORBIDDEN"]);
      expect((await withCookie(platform, viewer, "GET", `/admin/approvals/${id}`)).json.status).toBe(
        "PENDING",
      );
      expect(await creditMovements("http roles wire")).toBe("0");
    });
  });
});
