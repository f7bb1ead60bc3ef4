import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { totpCode } from "@payouts/gateway/edge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson } from "../support/call-json.js";
import { sessionCookieOf, withCookie } from "../support/operator-session.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/**
 * `npx payouts operators …` and `npx payouts machine-credentials …` (bin/payouts.mjs → the runtime CLI)
 * against a real gateway database: what they print signs in and calls the admin API.
 */
const BIN = fileURLToPath(new URL("../../bin/payouts.mjs", import.meta.url));
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

function payouts(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, DATABASE_URL: platform.databaseUrl, LOG_LEVEL: "silent" },
    input: input ?? "",
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const signIn = (username: string, password: string, secret: string) =>
  callJson(`${platform.adminUrl}/admin/session`, "POST", {}, { username, password, totp: totpCode(secret) });

describe("the payouts CLI", () => {
  it("adds an operator, printing a one-time password and a TOTP URI that sign in", async () => {
    const added = payouts(["operators", "add", "alice", "--role", "finance"]);
    expect(added.status, added.stderr).toBe(0);
    const password = /password \(shown once\): (\S+)/.exec(added.stdout)?.[1] ?? "";
    const uri = new URL(/(otpauth:\/\/\S+)/.exec(added.stdout)?.[1] ?? "x:");
    expect(uri.protocol).toBe("otpauth:");
    const secret = uri.searchParams.get("secret") ?? "";
    const res = await signIn("alice", password, secret);
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ name: "alice", role: "finance", kind: "operator" });
    // The database holds neither the password nor the TOTP secret in the clear.
    const row = await platform.runtime.db.query<{ password_hash: string; totp_secret_sealed: string }>(
      "SELECT password_hash, totp_secret_sealed FROM gateway.operators WHERE username = 'alice'",
    );
    expect(row.rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.rows[0]!.totp_secret_sealed).not.toContain(secret);
    expect(JSON.stringify(row.rows)).not.toContain(password);

    expect(payouts(["operators", "add", "alice", "--role", "viewer"]).stderr).toContain("already taken");
    expect(payouts(["operators", "add", "bob", "--role", "boss"]).status).toBe(2);
  });

  it("reads the password from stdin, lists, changes the role and disables, ending the sessions", async () => {
    const added = payouts(
      ["operators", "add", "carol", "--role", "viewer", "--password-stdin"],
      "a-long-password-1\n",
    );
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).not.toContain("password (shown once)");
    const secret =
      new URL(/(otpauth:\/\/\S+)/.exec(added.stdout)?.[1] ?? "x:").searchParams.get("secret") ?? "";
    const cookie = sessionCookieOf(await signIn("carol", "a-long-password-1", secret));
    expect(payouts(["operators", "set-role", "carol", "operator"]).stdout).toContain("now has role operator");
    expect((await withCookie(platform, cookie, "GET", "/admin/session")).json.role).toBe("operator");
    expect(payouts(["operators", "list"]).stdout).toMatch(/carol\toperator\tactive/);
    expect(payouts(["operators", "disable", "carol"]).status).toBe(0);
    expect((await withCookie(platform, cookie, "GET", "/admin/session")).status).toBe(401);
    expect(payouts(["operators", "list"]).stdout).toMatch(/carol\toperator\tdisabled/);
  });

  it("adds a machine credential whose token works with its role until revoked", async () => {
    const added = payouts(["machine-credentials", "add", "--name", "ci", "--role", "operator"]);
    expect(added.status, added.stderr).toBe(0);
    const token = /token \(shown once[^)]*\): (\S+)/.exec(added.stdout)?.[1] ?? "";
    const bearer = { authorization: `Bearer ${token}` };
    const me = await callJson(`${platform.adminUrl}/admin/session`, "GET", bearer);
    expect(me.json).toMatchObject({ name: "ci", role: "operator", kind: "machine" });
    expect(payouts(["machine-credentials", "revoke", "ci"]).status).toBe(0);
    expect((await callJson(`${platform.adminUrl}/admin/session`, "GET", bearer)).status).toBe(401);
  });
});
