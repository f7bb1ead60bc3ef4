/**
 * A stolen session cookie replayed after sign-out. An insider copies an operator's session cookie (from a
 * shared machine, a proxy log, a browser profile) — once right after sign-in, and once more after the
 * session was rotated to a new id — and replays both after the operator signs out. Sign-out ends the
 * session in the database, so every copy must be refused 401, for reads and writes, and the session row
 * must say it ended.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOperator, sessionCookieOf, signIn, withCookie } from "../support/operator-session.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { ADMIN_SESSION_ROTATE_MS: "500" } });
});
afterAll(() => platform?.close());

describe("a stolen session cookie after sign-out", () => {
  it("is refused, whether copied before or after a rotation, and the session is ended server-side", async () => {
    const victim = await createOperator(platform, "admin");
    const stolenAtSignIn = sessionCookieOf(await signIn(platform, victim));
    await new Promise((r) => setTimeout(r, 600));
    // The victim keeps working: the session is rotated, and the insider copies the new cookie too.
    const rotatedAnswer = await withCookie(platform, stolenAtSignIn, "GET", "/admin/session");
    expect(rotatedAnswer.status).toBe(200);
    const stolenAfterRotation = sessionCookieOf(rotatedAnswer);
    expect(stolenAfterRotation).not.toBe(stolenAtSignIn);

    expect((await withCookie(platform, stolenAfterRotation, "DELETE", "/admin/session")).status).toBe(200);

    for (const stolen of [stolenAtSignIn, stolenAfterRotation]) {
      const read = await withCookie(platform, stolen, "GET", "/admin/partners");
      expect([read.status, read.json.code]).toEqual([401, "AUTHENTICATION_REQUIRED"]);
      const write = await withCookie(platform, stolen, "POST", "/admin/partners", { name: "insider" });
      expect(write.status).toBe(401);
    }
    const partners = await platform.runtime.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM gateway.partners WHERE name = 'insider'",
    );
    expect(partners.rows[0]!.n).toBe(0);
    const live = await platform.runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM gateway.operator_sessions s JOIN gateway.operators o USING (operator_id)
        WHERE o.username = $1 AND s.ended_at IS NULL AND s.expires_at > now()`,
      [victim.username],
    );
    expect(live.rows[0]!.n).toBe(0);
  });
});
