/**
 * Failing a stuck payout by hand through the real gateway, ledger and sandbox rail on
 * real PostgreSQL: `POST /admin/transactions/{tx_id}/fail` refuses what is not PROCESSING and a payout the
 * rail has (it may still pay it), and with `force` fails and reverses once. The sandbox rail's CancelPayout
 * itself is tested in test/sandbox-rail/cancel-payout.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { assertLedgerInvariants } from "./support/ledger-invariants.js";
import {
  balance,
  executePayout,
  fundedPartner,
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

const fail = (txId: string, body: unknown) =>
  platform.admin("POST", `/admin/transactions/${txId}/fail`, body);

describe("POST /admin/transactions/{tx_id}/fail", () => {
  it("refuses unknown, non-PROCESSING and reason-less requests", async () => {
    const missing = await fail("tx_nope", { reason: "stuck" });
    expect([missing.status, missing.json.code]).toEqual([404, "TRANSACTION_NOT_FOUND"]);
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId);
    const pending = await fail(txId, { reason: "stuck" });
    expect([pending.status, pending.json.code]).toEqual([409, "TRANSACTION_NOT_PROCESSING"]);
    const noReason = await fail(txId, {});
    expect([noReason.status, noReason.json.code, noReason.json.field]).toEqual([
      400,
      "MISSING_REQUIRED_FIELD",
      "reason",
    ]);
    const badForce = await fail(txId, { reason: "stuck", force: "yes" });
    expect([badForce.status, badForce.json.field]).toEqual([400, "force"]);
  });

  it("refuses a payout the rail accepted; forced, fails and reverses it once, and the rail's later verdict changes nothing", async () => {
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    expect((await executePayout(platform, partner, txId, "key-fail-1")).status).toBe(200);

    const refused = await fail(txId, { reason: "stuck" });
    expect([refused.status, refused.json.code]).toEqual([409, "PAYOUT_ACCEPTED_BY_RAIL"]);
    expect(await balance(platform, partner.partnerId)).toBe("89.55");

    const forced = await fail(txId, { reason: "provider confirmed: not paid", force: true });
    expect(forced.status).toBe(200);
    expect(forced.json).toMatchObject({
      tx_id: txId,
      status: "FAILED",
      failure_reason: "provider confirmed: not paid",
    });
    expect(await balance(platform, partner.partnerId)).toBe("100");
    const again = await fail(txId, { reason: "again", force: true });
    expect([again.status, again.json.code]).toEqual([409, "TRANSACTION_NOT_PROCESSING"]);

    // The rail reports success afterwards: the ledger keeps FAILED (logged for reconciliation).
    const settled = await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
      outcome: "SUCCESS",
    });
    expect(settled.json).toMatchObject({ delivered: true, status: "FAILED" });
    expect(await balance(platform, partner.partnerId)).toBe("100");
    const view = await platform.partner(partner, "GET", `/transactions/${txId}`);
    expect(view.json.status_history.map((c: { to: string }) => c.to)).toEqual([
      "PENDING",
      "PROCESSING",
      "FAILED",
    ]);
  });
});
