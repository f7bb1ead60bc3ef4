import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAdminApp } from "@payouts/gateway/internal/admin-app";
import type { Database } from "@payouts/platform/database/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RawResponse, rawRequest } from "../support/raw-http.js";
import { registeredRoutes } from "../support/registered-routes.js";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/**
 * The only admin routes that answer without the token: the probes, the metrics and the
 * operator console's static files, which hold no data.
 */
const PUBLIC_ROUTES = [
  "GET /console",
  "GET /console/*",
  "GET /healthz",
  "GET /metrics",
  "GET /readyz",
  "POST /admin/session",
  "GET /admin/sign-in-options",
  "GET /admin/oidc/login",
  "GET /admin/oidc/callback",
];
const MARKER = "edge-marker-partner-name";

/** Bodies that would succeed with the token, so that a bypass would show as a 2xx and a write. */
const BODIES: Record<string, unknown> = {
  "POST /admin/partners": { name: "bypass" },
  "PATCH /admin/partners/{partner_id}": { name: "bypass" },
  "POST /admin/partners/{partner_id}/apps": {},
  "POST /admin/partners/{partner_id}/balance/credits": { amount_usd: "1000000", reference: "bypass" },
  "PUT /admin/partners/{partner_id}/statement-settings": { time_zone: "Africa/Lagos" },
  "PUT /admin/fx-rates/{currency}": { rate_per_usd: "1.5" },
  "PUT /admin/corridors/{country_code}": { currency: "BRL", min_amount: "1", max_amount: "2" },
  "POST /admin/transactions/{tx_id}/refund": { reason: "bypass" },
  "POST /admin/transactions/{tx_id}/fail": { reason: "bypass", force: true },
  "POST /admin/sandbox/transactions/{tx_id}/settle": { outcome: "SUCCESS" },
  "PATCH /admin/partners/{partner_id}/apps/{client_id}": { preview_rate_limit_per_minute: 7 },
  "PATCH /admin/webhook-configs/{config_id}": { enabled: false, reason: "bypass" },
};

let keys = 0;
/** Money-moving admin routes take an idempotency key; a fresh one per request lets a bypass show as a write. */
const freshKey = () => ({ "X-Idempotency-Key": `admin-access-${++keys}` });

/** Every way of writing an admin path that some layer might read differently from the router. */
function spellings(path: string): Record<string, string> {
  const rest = path.slice("/admin".length);
  return {
    canonical: path,
    "percent-encoded a": `/%61dmin${rest}`,
    "percent-encoded A": `/%41dmin${rest}`,
    "fully percent-encoded": `/${[..."admin"].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("")}${rest}`,
    "double-encoded": `/%2561dmin${rest}`,
    "encoded slash": `/admin%2F${rest.slice(1)}`,
    "double slash": `/${path}`,
    "inner double slash": `/admin/${rest}`,
    "dot segment": `/x/..${path}`,
    "encoded dot segment": `/x/%2e%2e${path}`,
    "single dot": `/.${path}`,
    "upper case": `/ADMIN${rest}`,
    "mixed case": `/Admin${rest}`,
    "trailing slash": `${path}/`,
    "with query": `${path}?x=1`,
    "with semicolon": `${path};x=1`,
    "absolute-form": `http://x${path}`,
    "absolute-form upper scheme": `HTTP://X${path}`,
    "absolute-form encoded": `http://x/%61dmin${rest}`,
  };
}

/**
 * Tables background work writes on a timer whatever requests arrive: leases, worker heartbeats and the
 * statement closer's days.
 */
const TIMER_TABLES = new Set([
  "webhooks.workers",
  "ledger.relay_lease",
  "ledger.statement_days",
  "ledger.statement_day_entries",
]);

/** The audit trail records every refused write attempt: that is its job (test/gateway/audit-trail.test.ts). */
const AUDIT_TABLES = new Set(["gateway.audit_records", "gateway.audit_chain_head"]);

/** A digest of every row of every table the platform has: any write shows up as a change. */
async function databaseDigest(db: Database): Promise<Record<string, string>> {
  const tables = await db.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const digest: Record<string, string> = {};
  for (const { name } of tables.rows) {
    if (TIMER_TABLES.has(name) || AUDIT_TABLES.has(name)) continue;
    const res = await db.query<{ d: string }>(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS d FROM ${name} t`,
    );
    digest[name] = res.rows[0]!.d;
  }
  return digest;
}

describe("admin authorization is structural", () => {
  let platform: TestPlatform;
  let port: number;
  let ids: Record<string, string>;
  let routes: string[];

  beforeAll(async () => {
    platform = await startTestPlatform();
    port = platform.runtime.gateway.adminPort;
    const partner = await platform.createPartner({ name: MARKER });
    ids = {
      partner_id: partner.partnerId,
      client_id: partner.clientId,
      tx_id: "tx_unknown",
      currency: "BRL",
      country_code: "BR",
    };
    routes = registeredRoutes(platform.runtime.gateway.adminApp);
  });
  afterAll(() => platform.close());

  const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? "x");
  const protectedRoutes = () => routes.filter((r) => !PUBLIC_ROUTES.includes(r));

  it("lists every admin route, and only the health, readiness and metrics routes as public", () => {
    expect(routes).toEqual(expect.arrayContaining(PUBLIC_ROUTES));
    expect(protectedRoutes().length).toBeGreaterThanOrEqual(14);
    for (const route of protectedRoutes()) expect(route).toMatch(/^[A-Z]+ \/admin\//);
  });

  it("answers no admin route without the token, whatever the URL spelling, and writes nothing", async () => {
    const before = await databaseDigest(platform.runtime.db);
    const head = await platform.runtime.db.query<{ sequence: string }>(
      "SELECT sequence FROM gateway.audit_chain_head",
    );
    const answers: string[] = [];
    for (const route of protectedRoutes()) {
      const [method = "", path = ""] = route.split(" ");
      const body = method === "GET" || method === "DELETE" ? undefined : JSON.stringify(BODIES[route] ?? {});
      for (const [spelling, target] of Object.entries(spellings(concrete(path)))) {
        for (const headers of [
          {},
          { Authorization: "Bearer wrong-token" },
          { Authorization: "Basic eDp5" },
        ]) {
          const res = await rawRequest(port, method, target, { ...headers, ...freshKey() }, body);
          answers.push(`${route} ${spelling} → ${res.status}`);
          expectRefusal(res, `${route} as ${spelling} (${target})`);
        }
      }
    }
    expect(answers.length).toBeGreaterThan(14 * 19 * 3 - 1);
    expect(await databaseDigest(platform.runtime.db)).toEqual(before);
    // What the audit trail holds of them: refusals only, none of which reached a handler.
    const audited = await platform.runtime.db.query<{
      phase: string;
      status: number;
      actor_id: string | null;
    }>("SELECT DISTINCT phase, status, actor_id FROM gateway.audit_records WHERE sequence > $1", [
      head.rows[0]?.sequence,
    ]);
    expect(audited.rows.length).toBeGreaterThan(0);
    for (const row of audited.rows) {
      expect(row).toMatchObject({ phase: "finished", actor_id: null });
      expect([400, 401]).toContain(row.status);
    }
    const balance = await platform.admin("GET", `/admin/partners/${ids.partner_id}/balance`);
    expect(balance.json.balance_usd).toMatch(/^0(\.0+)?$/);
  });

  function expectRefusal(res: RawResponse, where: string) {
    expect(res.status, where).toBeGreaterThanOrEqual(400);
    expect([401, 404, 405, 400], where).toContain(res.status);
    if (res.status === 401) {
      expect(res.json.code, where).toBe("AUTHENTICATION_REQUIRED");
      expect(res.headers["www-authenticate"], where).toMatch(/^Bearer /);
    }
    expect(res.json.request_id, where).toBe(res.headers["x-request-id"]);
    expect(res.text, where).not.toContain(MARKER);
    expect(res.text, where).not.toContain("balance_usd");
  }

  it("answers the public routes without the token", async () => {
    expect((await rawRequest(port, "GET", "/healthz")).status).toBe(200);
    expect([200, 503]).toContain((await rawRequest(port, "GET", "/readyz")).status);
    expect([200, 404]).toContain((await rawRequest(port, "GET", "/metrics")).status);
  });

  it("answers an unknown path without the token, with the error body and nothing else", async () => {
    const res = await rawRequest(port, "GET", "/nothing/here");
    expect(res.status).toBe(404);
    expect(Object.keys(res.json).sort()).toEqual(["code", "message", "request_id"]);
  });

  it("still serves every admin route with the valid token, in the canonical and absolute forms", async () => {
    const auth = { Authorization: `Bearer ${ADMIN_TOKEN}` };
    const created = await rawRequest(port, "POST", "/admin/partners", auth, JSON.stringify({ name: "ok" }));
    expect(created.status).toBe(201);
    const absolute = await rawRequest(
      port,
      "GET",
      `http://x/admin/partners/${created.json.partner_id}`,
      auth,
    );
    expect(absolute.status).toBe(200);
    expect(absolute.json.name).toBe("ok");
    const credit = await rawRequest(
      port,
      "POST",
      `/admin/partners/${created.json.partner_id}/balance/credits`,
      { ...auth, ...freshKey() },
      JSON.stringify({ amount_usd: "10", reference: "ok" }),
    );
    expect(credit.status).toBe(201);
    expect(credit.json.balance_usd).toMatch(/^10(\.0+)?$/);
    // Every protected route accepts the token (its answer is the route's own, never the 401).
    ids = { ...ids, partner_id: created.json.partner_id };
    for (const route of protectedRoutes()) {
      const [method = "", path = ""] = route.split(" ");
      const body = method === "GET" || method === "DELETE" ? undefined : JSON.stringify(BODIES[route] ?? {});
      const res = await rawRequest(port, method, concrete(path), { ...auth, ...freshKey() }, body);
      expect(res.status, route).not.toBe(401);
    }
  });
});

describe("a route added to the admin listener", () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("requires the token unless it is on the allowlist, which a route cannot join by itself", async () => {
    const app = await buildAdminApp(platform.runtime.gateway.deps, async () => true);
    app.post("/brand-new-route", async () => ({ secret: "reached" }));
    app.get("/reports/:id", async () => ({ secret: "reached" }));
    expect(() => app.get("/open", { config: { public: true } }, async () => ({ secret: "reached" }))).toThrow(
      /allowlist/,
    );
    // The console's paths are public for reading only.
    expect(() =>
      app.post("/console/*", { config: { public: true } }, async () => ({ secret: "reached" })),
    ).toThrow(/allowlist/);
    await app.ready();
    try {
      for (const [method, url] of [
        ["POST", "/brand-new-route"],
        ["GET", "/reports/1"],
        ["HEAD", "/reports/1"],
      ] as const) {
        const refused = await app.inject({ method, url });
        expect(refused.statusCode, url).toBe(401);
        expect(refused.body).not.toContain("reached");
        const allowed = await app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        expect(allowed.statusCode, url).toBe(200);
      }
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe("the operator console's files on the admin listener", () => {
  let platform: TestPlatform;
  let port: number;
  let dir: string;

  beforeAll(async () => {
    // A build of the console's shape: the page, a hashed asset, and a file outside the folder that must stay out of reach.
    dir = mkdtempSync(join(tmpdir(), "console-dist-"));
    mkdirSync(join(dir, "app", "assets"), { recursive: true });
    writeFileSync(join(dir, "app", "index.html"), "<!doctype html><title>console-page</title>");
    writeFileSync(join(dir, "app", "assets", "index-abc123.js"), "console.log('asset')");
    writeFileSync(join(dir, "app", ".hidden.json"), "{}");
    writeFileSync(join(dir, "outside.json"), '{"secret":"outside"}');
    platform = await startTestPlatform({ env: { CONSOLE_DIR: join(dir, "app") } });
    port = platform.runtime.gateway.adminPort;
  });
  afterAll(async () => {
    await platform.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the page without the token, under a strict CSP, and every deep link gets the page", async () => {
    for (const path of ["/console/", "/console/transactions/tx_1", "/console/partners?x=1"]) {
      const res = await rawRequest(port, "GET", path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toContain("console-page");
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["content-security-policy"]).toContain("script-src 'self'");
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(res.headers["content-security-policy"]).not.toContain("unsafe");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-request-id"]).toMatch(/^req_/);
    }
    const redirect = await rawRequest(port, "GET", "/console");
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe("/console/");
  });

  it("serves hashed assets as immutable, and nothing outside the build, hidden, or written", async () => {
    const asset = await rawRequest(port, "GET", "/console/assets/index-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers["content-type"]).toMatch(/javascript/);
    expect(asset.headers["cache-control"]).toContain("immutable");
    for (const path of [
      "/console/assets/missing.js",
      "/console/../outside.json",
      "/console/%2e%2e/outside.json",
      "/console/..%2foutside.json",
      "/console/assets/..%2f..%2foutside.json",
      "/console/.hidden.json",
      "/console/assets/%2e%2e/%2e%2e/outside.json",
    ]) {
      const res = await rawRequest(port, "GET", path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('"secret"');
      expect(res.json.request_id, path).toBe(res.headers["x-request-id"]);
    }
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const res = await rawRequest(port, method, "/console/", { "content-type": "application/json" }, "{}");
      expect(res.status, method).toBe(404);
    }
  });

  it("keeps every admin API route behind the token", async () => {
    for (const path of [
      "/console/../admin/fx-rates",
      "/console/%2e%2e/admin/fx-rates",
      "/console/admin/fx-rates",
    ]) {
      const res = await rawRequest(port, "GET", path);
      expect(res.text, path).not.toContain("fx_rates");
      if (path.includes("..") || path.includes("%2e")) expect([401, 404], path).toContain(res.status);
    }
  });
});
