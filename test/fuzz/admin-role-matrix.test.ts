import { hasRole, OPERATOR_ROLES, type OperatorRole } from "@payouts/gateway/internal/admin/admin-actor";
import { ADMIN_OPERATIONS } from "@payouts/gateway/internal/operations/admin/admin-operations";
import type { Database } from "@payouts/platform/database/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson } from "../support/call-json.js";
import { CSRF, createMachineToken, operatorCookie } from "../support/operator-session.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { adminOperations, type Operation } from "./support/api-surface.js";

/**
 * Every admin route (enumerated from the listener, as the fuzz suite does) × every role × both kinds of
 * credential (a named machine credential, an operator session): a role below the route's gets 403
 * ROLE_FORBIDDEN and nothing changes in the gateway's, ledger's, pricing's or webhooks' tables; a role at or
 * above it gets the route's own answer, never 401 or 403.
 */

/** Bodies that would succeed, so a refusal that let the request through would show as a write. */
const BODIES: Record<string, unknown> = {
  "POST /admin/partners": { name: "role-matrix" },
  "PATCH /admin/partners/{partner_id}": { name: "role-matrix" },
  "POST /admin/partners/{partner_id}/apps": {},
  "POST /admin/partners/{partner_id}/balance/credits": { amount_usd: "1000", reference: "role-matrix" },
  "PUT /admin/partners/{partner_id}/statement-settings": { time_zone: "Africa/Lagos" },
  "PUT /admin/fx-rates/{currency}": { rate_per_usd: "1.5" },
  "PUT /admin/corridors/{country_code}": { currency: "BRL", min_amount: "1", max_amount: "2" },
  "POST /admin/transactions/{tx_id}/refund": { reason: "role-matrix" },
  "POST /admin/transactions/{tx_id}/fail": { reason: "role-matrix", force: true },
  "POST /admin/sandbox/transactions/{tx_id}/settle": { outcome: "SUCCESS" },
  "PATCH /admin/partners/{partner_id}/apps/{client_id}": { preview_rate_limit_per_minute: 7 },
  "PATCH /admin/webhook-configs/{config_id}": { enabled: false, reason: "role-matrix" },
  "POST /admin/reconciliation/runs": { rail: "sandbox", date: "2026-01-01" },
};

/** Tables background work writes on a timer whatever requests arrive. */
const TIMER_TABLES = new Set([
  "webhooks.workers",
  "ledger.relay_lease",
  "ledger.statement_days",
  "ledger.statement_day_entries",
]);

/** The audit trail records every refusal: that is its job (test/gateway/audit-trail.test.ts). */
const AUDIT_TABLES = new Set(["gateway.audit_records", "gateway.audit_chain_head"]);

async function rowCounts(db: Database): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema IN ('gateway', 'ledger', 'pricing', 'webhooks')`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    if (TIMER_TABLES.has(name) || AUDIT_TABLES.has(name)) continue;
    counts[name] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${name}`)).rows[0]!.n;
  }
  return counts;
}

const requiredRole = new Map(ADMIN_OPERATIONS.map((op) => [`${op.method} ${op.path}`, op.role]));

let platform: TestPlatform;
let routes: Operation[];
let ids: Record<string, string>;

beforeAll(async () => {
  platform = await startTestPlatform();
  routes = adminOperations(platform.runtime.gateway.adminApp).filter((op) => op.auth === "bearer");
  const partner = await platform.createPartner({ name: "Role matrix" });
  ids = {
    partner_id: partner.partnerId,
    client_id: partner.clientId,
    currency: "BRL",
    country_code: "BR",
    date: "2026-01-01",
  };
});
afterAll(() => platform?.close());

const concrete = (template: string) =>
  template.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? "x_unknown");

type Caller = { kind: "machine" | "operator"; role: OperatorRole; headers: Record<string, string> };

async function callers(): Promise<Caller[]> {
  const out: Caller[] = [];
  for (const role of OPERATOR_ROLES) {
    out.push({
      kind: "machine",
      role,
      headers: { authorization: `Bearer ${await createMachineToken(platform, role)}` },
    });
    out.push({ kind: "operator", role, headers: { cookie: await operatorCookie(platform, role), ...CSRF } });
  }
  return out;
}

describe("the admin role matrix", () => {
  it("enumerates every guarded admin route, each with a declared role", () => {
    expect(routes.length).toBeGreaterThan(35);
    for (const op of routes)
      expect(requiredRole.get(`${op.method} ${op.template}`), `${op.method} ${op.template}`).toBeDefined();
  });

  it("refuses every role below a route's with 403 ROLE_FORBIDDEN and no write; serves every role at or above it", async () => {
    const matrix: string[] = [];
    for (const caller of await callers()) {
      const before = await rowCounts(platform.runtime.db);
      const allowed: Operation[] = [];
      for (const op of routes) {
        const needed = requiredRole.get(`${op.method} ${op.template}`)!;
        if (hasRole(caller.role, needed)) {
          allowed.push(op);
          continue;
        }
        const route = `${op.method} ${op.template}`;
        const body = op.method === "GET" || op.method === "DELETE" ? undefined : (BODIES[route] ?? {});
        const res = await callJson(
          `${platform.adminUrl}${concrete(op.template)}`,
          op.method,
          { ...caller.headers, "x-idempotency-key": `rm-${matrix.length}` },
          body,
        );
        matrix.push(`${caller.kind}/${caller.role} ${route} → ${res.status}`);
        expect([res.status, res.json?.code], `${caller.kind} ${caller.role} ${route}`).toEqual([
          403,
          "ROLE_FORBIDDEN",
        ]);
        expect(res.json.message).toContain(`needs the ${needed} role`);
      }
      expect(
        await rowCounts(platform.runtime.db),
        `${caller.kind} ${caller.role}: refusals wrote nothing`,
      ).toEqual(before);
      // Reads first, then writes that delete last, so the ids stay usable through the allowed calls.
      for (const op of allowed.sort(
        (a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"),
      )) {
        const route = `${op.method} ${op.template}`;
        if (route === "DELETE /admin/session") continue;
        const body = op.method === "GET" || op.method === "DELETE" ? undefined : (BODIES[route] ?? {});
        const res = await callJson(
          `${platform.adminUrl}${concrete(op.template)}`,
          op.method,
          { ...caller.headers, "x-idempotency-key": `ra-${matrix.length}` },
          body,
        );
        matrix.push(`${caller.kind}/${caller.role} ${route} → ${res.status}`);
        expect([401, 403], `${caller.kind} ${caller.role} ${route}: ${res.text}`).not.toContain(res.status);
      }
    }
    // Four roles, two credential kinds, every route once each.
    expect(matrix.length).toBe(8 * routes.length - 8);
  }, 240_000);
});
