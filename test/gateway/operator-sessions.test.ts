import { totpCode } from "@payouts/gateway/edge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson } from "../support/call-json.js";
import {
  createMachineToken,
  createOperator,
  operatorCookie,
  sessionCookieOf,
  signIn,
  withCookie,
} from "../support/operator-session.js";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/** Named operators: sign-in with password and TOTP, server-side sessions, CSRF, machine credentials. */
describe("operator sessions on the admin listener", () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({
      env: {
        ADMIN_TOKEN_PREVIOUS: "previous-admin-token-0123",
        ADMIN_LOGIN_FAILURES: "3",
        ADMIN_SESSION_ROTATE_MS: "1000",
      },
    });
  });
  afterAll(() => platform.close());

  it("signs an operator in with password and TOTP: an HttpOnly SameSite=Strict cookie, and who-am-I", async () => {
    const operator = await createOperator(platform, "finance");
    const res = await signIn(platform, operator);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^op_/),
      name: operator.username,
      kind: "operator",
      role: "finance",
    });
    const setCookie = res.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/payouts_admin_session=ses_/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    // The listener is reached by plain http here (no https ADMIN_PUBLIC_ORIGIN): no Secure attribute.
    expect(setCookie).not.toMatch(/Secure/);
    const me = await withCookie(platform, sessionCookieOf(res), "GET", "/admin/session");
    expect(me.status).toBe(200);
    expect(me.json.name).toBe(operator.username);
    // The database holds only a digest of the session id.
    const id = sessionCookieOf(res).split("=")[1]!;
    const rows = await platform.runtime.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM gateway.operator_sessions WHERE session_hash = $1",
      [id],
    );
    expect(rows.rows[0]!.n).toBe(0);
  });

  it("refuses a wrong password, a wrong code and a code used already, with INVALID_SIGN_IN", async () => {
    const operator = await createOperator(platform, "viewer");
    expect((await signIn(platform, operator, { password: "not-the-password" })).json.code).toBe(
      "INVALID_SIGN_IN",
    );
    const wrongCode = totpCode(operator.totpSecret, Date.now() + 10 * 60_000);
    const refused = await signIn(platform, operator, { totp: wrongCode });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("INVALID_SIGN_IN");
    const code = totpCode(operator.totpSecret);
    expect((await signIn(platform, operator, { totp: code })).status).toBe(201);
    const replayed = await signIn(platform, operator, { totp: code });
    expect(replayed.status).toBe(401);
    expect(replayed.json.code).toBe("INVALID_SIGN_IN");
    const unknown = await signIn(platform, { ...operator, username: "nobody-here" });
    expect(unknown.json.code).toBe("INVALID_SIGN_IN");
  });

  it("throttles failed sign-ins per user name and address, without locking the operator out elsewhere", async () => {
    const victim = await createOperator(platform, "admin");
    for (let i = 0; i < 3; i++) {
      expect((await signIn(platform, victim, { password: `guess-${i}` })).status).toBe(401);
    }
    const throttled = await signIn(platform, victim);
    expect(throttled.status).toBe(429);
    expect(throttled.json.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another operator from the same address is not held back by the victim's failures.
    const other = await createOperator(platform, "viewer");
    expect((await signIn(platform, other)).status).toBe(201);
  });

  it("requires X-Requested-With on cookie-authenticated writes (CSRF), not on reads or bearer calls", async () => {
    const cookie = await operatorCookie(platform, "admin");
    const forged = await withCookie(
      platform,
      cookie,
      "POST",
      "/admin/partners",
      { name: "csrf" },
      { csrf: false },
    );
    expect(forged.status).toBe(403);
    expect(forged.json.code).toBe("CSRF_HEADER_REQUIRED");
    const partners = await platform.runtime.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM gateway.partners WHERE name = 'csrf'",
    );
    expect(partners.rows[0]!.n).toBe(0);
    expect(
      (await withCookie(platform, cookie, "GET", "/admin/fx-rates", undefined, { csrf: false })).status,
    ).toBe(200);
    expect((await withCookie(platform, cookie, "POST", "/admin/partners", { name: "csrf ok" })).status).toBe(
      201,
    );
  });

  it("ends the session on sign-out: the same cookie is refused afterwards", async () => {
    const cookie = await operatorCookie(platform, "viewer");
    const out = await withCookie(platform, cookie, "DELETE", "/admin/session");
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join("\n")).toMatch(/payouts_admin_session=;/);
    const after = await withCookie(platform, cookie, "GET", "/admin/session");
    expect(after.status).toBe(401);
    expect(after.json.code).toBe("AUTHENTICATION_REQUIRED");
  });

  it("rotates the session id once it is old: the new cookie works, the old one only for a short grace", async () => {
    const cookie = await operatorCookie(platform, "viewer");
    await new Promise((r) => setTimeout(r, 1100));
    const res = await withCookie(platform, cookie, "GET", "/admin/session");
    expect(res.status).toBe(200);
    const rotated = sessionCookieOf(res);
    expect(rotated).not.toBe(cookie);
    expect((await withCookie(platform, rotated, "GET", "/admin/session")).status).toBe(200);
    const rows = await platform.runtime.db.query<{ rotated: number }>(
      `SELECT count(*)::int AS rotated FROM gateway.operator_sessions
        WHERE rotated_at IS NOT NULL AND expires_at <= now() + interval '31 seconds'`,
    );
    expect(rows.rows[0]!.rotated).toBeGreaterThanOrEqual(1);
  });

  it("refuses a disabled operator's live session", async () => {
    const operator = await createOperator(platform, "operator");
    const cookie = sessionCookieOf(await signIn(platform, operator));
    await platform.runtime.db.query("UPDATE gateway.operators SET disabled_at = now() WHERE username = $1", [
      operator.username,
    ]);
    expect((await withCookie(platform, cookie, "GET", "/admin/session")).status).toBe(401);
  });

  it("accepts the admin token and the previous one as the machine credential admin-token", async () => {
    for (const token of [ADMIN_TOKEN, "previous-admin-token-0123"]) {
      const me = await callJson(`${platform.adminUrl}/admin/session`, "GET", {
        authorization: `Bearer ${token}`,
      });
      expect(me.json).toEqual({ id: "mc_admin_token", name: "admin-token", kind: "machine", role: "admin" });
    }
  });

  it("accepts a named machine credential with its role until it is revoked", async () => {
    const token = await createMachineToken(platform, "operator");
    const bearer = { authorization: `Bearer ${token}` };
    const me = await callJson(`${platform.adminUrl}/admin/session`, "GET", bearer);
    expect(me.json).toMatchObject({ kind: "machine", role: "operator", id: expect.stringMatching(/^mc_/) });
    const refused = await callJson(`${platform.adminUrl}/admin/partners`, "POST", bearer, { name: "x" });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe("ROLE_FORBIDDEN");
    await platform.runtime.db.query(
      "UPDATE gateway.machine_credentials SET revoked_at = now() WHERE name = $1",
      [me.json.name],
    );
    expect((await callJson(`${platform.adminUrl}/admin/session`, "GET", bearer)).status).toBe(401);
  });
});
