/**
 * A viewer crediting a balance. An insider with a viewer's access — signed in as a viewer operator, or
 * holding a viewer machine credential — calls the finance route that credits a partner's prepaid balance,
 * with a valid body, a fresh idempotency key and (for the session) the console's CSRF header. Each attempt
 * must be refused 403 ROLE_FORBIDDEN before the handler runs: the balance and the ledger's rows stay as
 * they were. A finance operator doing the same succeeds, so the refusal is the role's and nothing else's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson } from "../support/call-json.js";
import { CSRF, createMachineToken, operatorCookie, withCookie } from "../support/operator-session.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

let platform: TestPlatform;
let partnerId: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  partnerId = (await platform.createPartner({ name: "Victim partner" })).partnerId;
});
afterAll(() => platform?.close());

const credit = { amount_usd: "250000", reference: "inside job" };
const ledgerRows = async () =>
  (await platform.runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger.entries")).rows[0]!
    .n;
const balance = async () =>
  (await platform.admin("GET", `/admin/partners/${partnerId}/balance`)).json.balance_usd as string;

describe("a viewer crediting a balance", () => {
  it("is refused with a viewer session and with a viewer machine credential, and nothing is written", async () => {
    const path = `/admin/partners/${partnerId}/balance/credits`;
    const before = { rows: await ledgerRows(), balance: await balance() };
    const viaSession = await withCookie(
      platform,
      await operatorCookie(platform, "viewer"),
      "POST",
      path,
      credit,
      {
        headers: { "x-idempotency-key": "viewer-session-1" },
      },
    );
    expect([viaSession.status, viaSession.json.code]).toEqual([403, "ROLE_FORBIDDEN"]);
    expect(viaSession.json.message).toContain("finance");
    const token = await createMachineToken(platform, "viewer");
    const viaToken = await callJson(
      `${platform.adminUrl}${path}`,
      "POST",
      { authorization: `Bearer ${token}`, "x-idempotency-key": "viewer-token-1" },
      credit,
    );
    expect([viaToken.status, viaToken.json.code]).toEqual([403, "ROLE_FORBIDDEN"]);
    // An operator (the role between viewer and finance) is refused too.
    const viaOperator = await withCookie(
      platform,
      await operatorCookie(platform, "operator"),
      "POST",
      path,
      credit,
      {
        headers: { "x-idempotency-key": "operator-session-1", ...CSRF },
      },
    );
    expect([viaOperator.status, viaOperator.json.code]).toEqual([403, "ROLE_FORBIDDEN"]);
    expect({ rows: await ledgerRows(), balance: await balance() }).toEqual(before);

    const finance = await withCookie(
      platform,
      await operatorCookie(platform, "finance"),
      "POST",
      path,
      credit,
      {
        headers: { "x-idempotency-key": "finance-session-1" },
      },
    );
    expect(finance.status).toBe(201);
    expect(await balance()).toMatch(/^250000(\.0+)?$/);
  });
});
