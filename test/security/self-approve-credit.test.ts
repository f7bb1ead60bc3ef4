/**
 * An insider crediting a partner's balance alone. The attacker holds an admin credential and wants a
 * large credit on a partner they control: they ask for it, then approve their own request, retry the
 * approval concurrently, try to push the same idempotency key through as a credit below the threshold,
 * withdraw-then-approve, and approve with a second credential of their own (a machine credential, as
 * `payouts machine-credentials add` makes). Every path must leave the balance and the ledger's credit
 * movements untouched: a credit above the threshold moves money only when another person approves it.
 */
import type { Database } from "@payouts/platform/database/database";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance } from "../ledger/support/payout-fixtures.js";
import { callJson } from "../support/call-json.js";
import { createMachineToken, operatorCookie, withCookie } from "../support/operator-session.js";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";

describe("self-approving a large credit", () => {
  let platform: TestPlatform;
  let db: Database;
  let partnerId: string;

  const creditMovements = async () =>
    (
      await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM ledger.movements WHERE partner_id = $1 AND kind = 'credit'",
        [partnerId],
      )
    ).rows[0]?.n;

  beforeAll(async () => {
    // Four-eyes as a deployment has it: on, with the default threshold.
    platform = await startTestPlatform({ env: { FOUR_EYES_APPROVALS: "true" } });
    db = createPgDatabase({ connectionString: platform.databaseUrl, maxConnections: 2 });
    ({ partnerId } = await platform.createPartner());
  });
  afterAll(async () => {
    await db?.close();
    await platform?.close();
  });

  it("cannot credit 250,000 USD by approving its own request, however it tries", async () => {
    const path = `/admin/partners/${partnerId}/balance/credits`;
    const key = { "X-Idempotency-Key": "insider-1" };
    const asked = await platform.admin("POST", path, { amount_usd: "250000", reference: "insider" }, key);
    expect(asked.status, asked.text).toBe(202);
    const id = asked.json.approval_id;

    const approveAll = await Promise.all(
      Array.from({ length: 5 }, () => platform.admin("POST", `/admin/approvals/${id}/approve`)),
    );
    for (const res of approveAll) {
      expect([res.status, res.json.code]).toEqual([403, "APPROVAL_BY_REQUESTER"]);
    }

    // The same key as a small credit, hoping it goes straight to the ledger and is later replayed big.
    const small = await platform.admin("POST", path, { amount_usd: "1", reference: "insider" }, key);
    expect(small.json.code).toBe("IDEMPOTENCY_KEY_REUSED");

    // Withdrawing and approving: a rejected request cannot be approved by anyone.
    const withdrawn = await platform.admin("POST", `/admin/approvals/${id}/reject`, { reason: "oops" });
    expect(withdrawn.json.status).toBe("REJECTED");
    const late = await platform.admin("POST", `/admin/approvals/${id}/approve`);
    expect(late.json.code).toBe("APPROVAL_ALREADY_DECIDED");

    expect(await balance(platform, partnerId)).toBe("0");
    expect(await creditMovements()).toBe("0");
    const request = await platform.admin("GET", `/admin/approvals/${id}`);
    expect(request.json).toMatchObject({ status: "REJECTED", outcome: null });
  });
  it("cannot approve its own request with a second credential it holds", async () => {
    const cookie = await operatorCookie(platform, "admin");
    const secondToken = await createMachineToken(platform, "admin");
    const path = `/admin/partners/${partnerId}/balance/credits`;
    const asked = await withCookie(
      platform,
      cookie,
      "POST",
      path,
      { amount_usd: "250000", reference: "insider-2" },
      { headers: { "X-Idempotency-Key": "insider-2" } },
    );
    expect(asked.status, asked.text).toBe(202);
    const approve = (authorization: string) =>
      callJson(`${platform.adminUrl}/admin/approvals/${asked.json.approval_id}/approve`, "POST", {
        authorization,
      });
    const bySecond = await approve(`Bearer ${secondToken}`);
    expect([bySecond.status, bySecond.json.code]).toEqual([403, "APPROVAL_BY_MACHINE"]);
    const byToken = await approve(`Bearer ${ADMIN_TOKEN}`);
    expect([byToken.status, byToken.json.code]).toEqual([403, "APPROVAL_BY_MACHINE"]);
    const bySelf = await withCookie(
      platform,
      cookie,
      "POST",
      `/admin/approvals/${asked.json.approval_id}/approve`,
    );
    expect([bySelf.status, bySelf.json.code]).toEqual([403, "APPROVAL_BY_REQUESTER"]);
    expect(await balance(platform, partnerId)).toBe("0");
    expect(await creditMovements()).toBe("0");
  });
});
