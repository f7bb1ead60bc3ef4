import { buildAdminApp } from "@payouts/gateway/internal/admin-app";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson } from "../support/call-json.js";
import {
  createMachineToken,
  createOperator,
  sessionCookieOf,
  signIn,
  withCookie,
} from "../support/operator-session.js";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/**
 * The admin listener's audit trail on real PostgreSQL: what is recorded (every state-changing request,
 * whatever its outcome, secrets redacted), what is not (reads), that concurrent requests form one chain,
 * and that a request whose record cannot be written is refused before it changes anything.
 */
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

// biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
type Json = any;

async function auditRows(): Promise<Json[]> {
  const res = await platform.runtime.db.query("SELECT * FROM gateway.audit_records ORDER BY sequence");
  return res.rows;
}

/** The entries of GET /admin/audit with `query`, newest first. */
async function audit(query = ""): Promise<Json[]> {
  const res = await platform.admin("GET", `/admin/audit${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.records;
}

describe("the admin audit trail", () => {
  it("records a state-changing request once, before and after its handler, with its actor, route, targets and outcome", async () => {
    const partner = await platform.admin(
      "POST",
      "/admin/partners",
      { name: "Audited" },
      { "user-agent": "audit-test/1" },
    );
    expect(partner.status).toBe(201);
    const partnerId = partner.json.partner_id;
    const before = (await auditRows()).length;
    const renamed = await platform.admin("PATCH", `/admin/partners/${partnerId}`, { name: "Audited 2" });
    expect(renamed.status).toBe(200);

    const rows = (await auditRows()).slice(before);
    expect(rows.map((r) => [r.phase, r.method, r.route, r.status])).toEqual([
      ["started", "PATCH", "/admin/partners/:partner_id", null],
      ["finished", "PATCH", "/admin/partners/:partner_id", 200],
    ]);
    expect(rows[1].started_sequence).toBe(rows[0].sequence);
    expect(rows[1].target_ids).toEqual({ partner_id: partnerId });
    expect(JSON.parse(rows[1].body)).toEqual({ name: "Audited 2" });
    expect(rows[1]).toMatchObject({
      actor_id: "mc_admin_token",
      actor_name: "admin-token",
      actor_kind: "machine",
      actor_role: "admin",
      source_address: "127.0.0.1",
      request_id: renamed.headers.get("x-request-id"),
    });

    // The list shows the request once, with its outcome; filtered by target, by route and by actor.
    const listed = await audit(`?target_id=${partnerId}`);
    expect(listed.map((r) => [r.method, r.route, r.status, r.outcome, r.phase])).toEqual([
      ["PATCH", "/admin/partners/:partner_id", 200, "succeeded", "finished"],
    ]);
    expect(listed[0].actor).toEqual({
      id: "mc_admin_token",
      name: "admin-token",
      kind: "machine",
      role: "admin",
    });
    expect((await audit(`?route=${encodeURIComponent("/admin/partners")}`)).map((r) => r.status)).toContain(
      201,
    );
    expect((await audit("?actor=nobody")).length).toBe(0);
    // Time filters: from is inclusive, to exclusive; any instant JavaScript reads is accepted.
    const at = Date.parse(listed[0].at);
    const window = (from: number, to: number) =>
      audit(`?target_id=${partnerId}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`);
    expect((await window(at, at + 1)).length).toBe(1);
    expect((await window(at + 1, at + 60_000)).length).toBe(0);
    expect((await audit(`?target_id=${partnerId}&from=0000-01-01&to=9999-12-31`)).length).toBe(1);
    expect((await audit("?actor=admin-token")).length).toBeGreaterThan(0);
  });

  it("records refusals with their status and code: no credential, a wrong one, a body the route refuses; secrets redacted", async () => {
    const before = (await auditRows()).length;
    const anonymous = await callJson(`${platform.adminUrl}/admin/partners`, "POST", {}, { name: "x" });
    expect(anonymous.status).toBe(401);
    const wrong = await callJson(
      `${platform.adminUrl}/admin/partners/ptr_x`,
      "PATCH",
      { authorization: "Bearer wrong" },
      { name: "x" },
    );
    expect(wrong.status).toBe(401);
    const invalid = await platform.admin("POST", "/admin/partners", {
      name: "",
      password: "hunter2",
      client_secret: "cs-123",
      nested: { signing_secret: "ss-456", api_key: "ak-789", items: [{ webhook_secret: "ws-000" }] },
    });
    expect(invalid.status).toBe(400);

    const rows = (await auditRows()).slice(before);
    const finished = rows.filter((r) => r.phase === "finished");
    expect(finished.map((r) => [r.status, r.error_code, r.actor_id, r.route, r.target_ids])).toEqual([
      [401, "AUTHENTICATION_REQUIRED", null, "/admin/partners", {}],
      [401, "AUTHENTICATION_REQUIRED", null, "/admin/partners/:partner_id", { partner_id: "ptr_x" }],
      [400, invalid.json.code, "mc_admin_token", "/admin/partners", {}],
    ]);
    // Refused by the access check: no handler ran, so no started record (and the body was never read).
    expect(finished.map((r) => r.started_sequence === null)).toEqual([true, true, false]);
    expect(finished[0].body).toBeNull();
    const stored = JSON.stringify(rows);
    for (const secret of ["hunter2", "cs-123", "ss-456", "ak-789", "ws-000"])
      expect(stored).not.toContain(secret);
    expect(JSON.parse(finished[2].body)).toEqual({
      name: "",
      password: "[redacted]",
      client_secret: "[redacted]",
      nested: {
        signing_secret: "[redacted]",
        api_key: "[redacted]",
        items: [{ webhook_secret: "[redacted]" }],
      },
    });
    const refused = await audit("?outcome=refused&limit=3");
    expect(refused.map((r) => r.status)).toEqual([400, 401, 401]);
  });

  it("does not record reads, except exports of the trail", async () => {
    const before = (await auditRows()).length;
    expect((await platform.admin("GET", "/admin/partners")).status).toBe(200);
    expect((await platform.admin("GET", "/admin/audit")).status).toBe(200);
    expect((await platform.admin("GET", "/admin/audit/verification")).status).toBe(200);
    expect((await callJson(`${platform.adminUrl}/admin/partners`, "GET", {})).status).toBe(401);
    expect((await auditRows()).length).toBe(before);

    const exported = await platform.admin("GET", "/admin/audit/export.csv?outcome=refused");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = exported.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "sequence,at,actor_id,actor_name,actor_kind,actor_role,attempted_user,source_address,user_agent,request_id,method,route,target_ids,body,status,error_code,outcome,hash",
    );
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.slice(1).every((line) => line.includes(",refused,"))).toBe(true);
    const after = (await auditRows()).slice(before);
    expect(after.map((r) => [r.phase, r.method, r.route, r.status])).toEqual([
      ["started", "GET", "/admin/audit/export.csv", null],
      ["finished", "GET", "/admin/audit/export.csv", 200],
    ]);
  });

  it("pages newest first with a cursor, and refuses a cursor it did not give", async () => {
    const first = await platform.admin("GET", "/admin/audit?limit=2");
    expect(first.json.records).toHaveLength(2);
    const second = await platform.admin("GET", `/admin/audit?limit=2&cursor=${first.json.next_cursor}`);
    const sequences = [...first.json.records, ...second.json.records].map((r: Json) => r.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => b - a));
    expect(new Set(sequences).size).toBe(4);
    const bad = await platform.admin("GET", "/admin/audit?cursor=bm9wZQ");
    expect([bad.status, bad.json.code, bad.json.field]).toEqual([400, "INVALID_FIELD", "cursor"]);
  });

  it("keeps one unbroken chain under concurrent requests", async () => {
    const before = (await auditRows()).length;
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        platform.admin("POST", "/admin/partners", { name: `Concurrent ${i}` }),
      ),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const rows = await auditRows();
    expect(rows.length - before).toBe(48);
    expect(rows.map((r) => Number(r.sequence))).toEqual(rows.map((_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    const verification = await platform.admin("GET", "/admin/audit/verification");
    expect(verification.json).toMatchObject({ ok: true, verified_through: rows.length, broken_at: null });
  });
});

describe("operators' sessions and roles in the trail", () => {
  it("records sign-in (failed and successful), a role refusal and sign-out, with who and the secrets redacted", async () => {
    const operator = await createOperator(platform, "operator");
    const before = (await auditRows()).length;
    const failed = await signIn(platform, operator, { password: "wrong-password-123", totp: "000000" });
    expect(failed.status).toBe(401);
    const ok = await signIn(platform, operator);
    expect(ok.status).toBe(201);
    const cookie = sessionCookieOf(ok);
    // An operator may not credit money (finance): refused by its role, and recorded as such.
    const refused = await withCookie(
      platform,
      cookie,
      "POST",
      "/admin/partners/ptr_x/balance/credits",
      {
        amount_usd: "10",
        reference: "r",
      },
      { headers: { "X-Idempotency-Key": "audit-role-1" } },
    );
    expect([refused.status, refused.json.code]).toEqual([403, "ROLE_FORBIDDEN"]);
    const viewer = await createMachineToken(platform, "viewer");
    const machine = await callJson(
      `${platform.adminUrl}/admin/partners`,
      "POST",
      { authorization: `Bearer ${viewer}` },
      {
        name: "nope",
      },
    );
    expect(machine.status).toBe(403);
    expect((await withCookie(platform, cookie, "DELETE", "/admin/session")).status).toBe(200);

    const finished = (await auditRows()).slice(before).filter((r) => r.phase === "finished");
    expect(finished.map((r) => [r.method, r.route, r.status, r.error_code])).toEqual([
      ["POST", "/admin/session", 401, failed.json.code],
      ["POST", "/admin/session", 201, null],
      ["POST", "/admin/partners/:partner_id/balance/credits", 403, "ROLE_FORBIDDEN"],
      ["POST", "/admin/partners", 403, "ROLE_FORBIDDEN"],
      ["DELETE", "/admin/session", 200, null],
    ]);
    // The failed sign-in names the user it tried; sign-out names the operator.
    expect(finished[0]).toMatchObject({ actor_id: null, attempted_user: operator.username });
    expect(finished[4]).toMatchObject({
      actor_name: operator.username,
      actor_kind: "operator",
      actor_role: "operator",
    });
    expect(finished[2].target_ids).toEqual({ partner_id: "ptr_x" });
    // A role refusal names who was refused.
    expect(finished[2]).toMatchObject({ actor_name: operator.username, actor_role: "operator" });
    expect(finished[3]).toMatchObject({ actor_kind: "machine", actor_role: "viewer" });
    const stored = JSON.stringify(finished);
    expect(stored).not.toContain("wrong-password-123");
    expect(stored).not.toContain(operator.password);
    expect(JSON.parse(finished[0].body)).toEqual({
      username: operator.username,
      password: "[redacted]",
      totp: "[redacted]",
    });
    const byActor = await audit(`?actor=${operator.username}`);
    expect(byActor.map((r) => r.status)).toContain(401);
    expect(byActor.map((r) => r.status)).toContain(200);
  });
});

describe("a route added to the admin listener", () => {
  it("is recorded without asking, and does not run when its record cannot be written", async () => {
    const app = await buildAdminApp(platform.runtime.gateway.adminDeps, async () => true);
    let ran = 0;
    app.post("/admin/brand-new/:thing_id", async () => {
      ran += 1;
      return { ok: true };
    });
    await app.ready();
    const before = (await auditRows()).length;
    const res = await app.inject({
      method: "POST",
      url: "/admin/brand-new/th_1",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      payload: { totp: "123456", note: "kept" },
    });
    expect(res.statusCode).toBe(200);
    await app.close();
    const rows = (await auditRows()).slice(before);
    expect(rows.map((r) => [r.phase, r.route, r.status])).toEqual([
      ["started", "/admin/brand-new/:thing_id", null],
      ["finished", "/admin/brand-new/:thing_id", 200],
    ]);
    expect(JSON.parse(rows[1].body)).toEqual({ totp: "[redacted]", note: "kept" });
    expect(rows[1].target_ids).toEqual({ thing_id: "th_1" });

    // The trail's database is unreachable: the request is refused with 503 and the handler never runs.
    const down = createPgDatabase({
      connectionString: "postgres://nobody@127.0.0.1:1/none",
      maxConnections: 1,
    });
    const cut = await buildAdminApp({ ...platform.runtime.gateway.adminDeps, db: down }, async () => true);
    cut.post("/admin/brand-new/:thing_id", async () => {
      ran += 1;
      return { ok: true };
    });
    await cut.ready();
    const refused = await cut.inject({
      method: "POST",
      url: "/admin/brand-new/th_2",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      payload: { note: "never" },
    });
    await cut.close();
    await down.close();
    expect(refused.statusCode).toBe(503);
    expect(refused.json().message).toMatch(/audit trail is unavailable/);
    expect(refused.headers["retry-after"]).toBe("5");
    expect(refused.json().code).toBe("SERVICE_UNAVAILABLE");
    expect(ran).toBe(1);
  });
});
