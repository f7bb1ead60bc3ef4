import { createRouterTransport } from "@connectrpc/connect";
import { GATEWAY_MIGRATIONS } from "@payouts/gateway/edge";
import { hashSecret } from "@payouts/gateway/internal/auth/secret-hash";
import { loadGatewayConfig } from "@payouts/gateway/internal/gateway-config";
import {
  type GatewayHandle,
  type GatewayTransports,
  startGateway,
} from "@payouts/gateway/internal/gateway-server";
import { insertApp, insertPartner } from "@payouts/gateway/internal/store/partner-store";
import { adminOpenApiDocument, openApiDocument } from "@payouts/gateway/openapi";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createLogger } from "@payouts/platform/logging/logger";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import {
  railCallbackSignature,
  railCallbackTimestamp,
} from "@payouts/platform/signing/rail-callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, callJson } from "../support/call-json.js";
import { freePort } from "../support/free-port.js";
import { createTestDatabase } from "../support/infra.js";
import { OpenApiContract } from "../support/openapi-contract.js";

/**
 * The 500 and 503 of every route of both documents, answered for real: each documented route is called
 * with a request that passes its own checks, on a gateway whose services do not listen and whose database
 * is unreachable (→ 503 SERVICE_UNAVAILABLE with Retry-After), and on one whose services answer an
 * unexpected error or whose database query fails (→ 500 INTERNAL, disclosing nothing). Every answer must
 * match the document, and every documented 500 and 503 must have been seen.
 */
const ADMIN_TOKEN = "test-admin-token-0123456789";
const SECRET = "cs_test_secret_for_failure_statuses";
const RAIL_SECRET = "test-rail-callback-secret-of-32-bytes";

/** A request body that passes each operation's own checks (ids need not exist: nothing gets that far). */
const BODIES: Record<string, unknown> = {
  "POST /lookupPaymentCode": { customer_id: "cus_x", country_code: "BR", payment_destination: "x" },
  "POST /decodeQr": { customer_id: "cus_x", qr_string: "000201" },
  "POST /customers": { name_first: "Ana", name_last: "Souza", country: "BR" },
  "POST /previewQuotations": { amount: 10, currency: "USD" },
  "POST /getQuotation": { tx_id: "tx_x", amount: 10 },
  "POST /executePayout": { tx_id: "tx_x" },
  "POST /webhookConfigs": { url: "https://example.invalid" },
  "PATCH /webhookConfigs/{id}": { active: true },
  "POST /callbacks/rail": { tx_id: "tx_x", outcome: "SUCCESS" },
  "POST /admin/session": { username: "nobody", password: "x", totp: "123456" },
  "POST /admin/partners": { name: "x" },
  "PATCH /admin/partners/{partner_id}": { name: "x" },
  "POST /admin/partners/{partner_id}/balance/credits": { amount_usd: "1", reference: "r" },
  "PUT /admin/partners/{partner_id}/statement-settings": { time_zone: "UTC" },
  "POST /admin/partners/{partner_id}/statements/{date}/corrections": { amount_usd: "1", note: "n" },
  "PUT /admin/fx-rates/{currency}": { rate_per_usd: "5" },
  "PUT /admin/corridors/{country_code}": { currency: "BRL", min_amount: "1", max_amount: "2" },
  "POST /admin/transactions/{tx_id}/fail": { reason: "r" },
  "POST /admin/sandbox/transactions/{tx_id}/settle": { outcome: "SUCCESS" },
  "PATCH /admin/partners/{partner_id}/apps/{client_id}": { preview_rate_limit_per_minute: 60 },
  "PATCH /admin/webhook-configs/{config_id}": { enabled: false, reason: "r" },
  "POST /admin/reconciliation/runs": { date: "2026-01-02" },
  "POST /admin/reconciliation/breaks/{break_id}/resolve": { note: "n", resolved_by: "ops" },
  "POST /admin/sandbox/settlements/{date}/discrepancies": { kind: "ADD_UNKNOWN_RECORD" },
};
const QUERIES: Record<string, string> = {
  "GET /listBanks": "?country_code=BR",
  "GET /statements": "?from=2026-01-01&to=2026-01-02",
};

let database: { url: string; drop: () => Promise<void> };
let db: Database;
let partnerId: string;
const partner = new OpenApiContract(JSON.parse(JSON.stringify(openApiDocument())));
const admin = new OpenApiContract(JSON.parse(JSON.stringify(adminOpenApiDocument())));

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPgDatabase({ connectionString: database.url });
  await migrate(db, GATEWAY_MIGRATIONS);
  partnerId = (await insertPartner(db, "ptr_failures", "Failure statuses")).partner_id;
  await insertApp(db, {
    clientId: "ci_failures",
    partnerId,
    secretHash: await hashSecret(SECRET),
    previewRateLimitPerMinute: 600,
  });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

async function startWith(gatewayDb: Database, transports: GatewayTransports): Promise<GatewayHandle> {
  const config = loadGatewayConfig({
    PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    HOST: "127.0.0.1",
    ADMIN_TOKEN,
    RAIL_CALLBACK_SECRET: RAIL_SECRET,
  });
  return startGateway({
    config,
    db: gatewayDb,
    transports,
    logger: createLogger({ service: "test", level: "silent" }),
  });
}

const every = (make: () => GatewayTransports["ledger"]): GatewayTransports => ({
  lookup: make(),
  pricing: make(),
  ledger: make(),
  webhooks: make(),
  rail: make(),
});

/** A database whose every statement fails with an error that is not a lost connection: a bug, not an outage. */
function brokenDatabase(): Database {
  const fail = async (): Promise<never> => {
    throw new Error("relation does not exist (planted)");
  };
  return { kind: "postgres", query: fail, transaction: fail, close: async () => {} } as unknown as Database;
}

/** Calls every documented route of `contract` on `base` with a request that passes its own checks. */
async function callEveryRoute(
  contract: OpenApiContract,
  base: string,
  listener: "partner" | "admin",
  only: (route: string) => boolean = () => true,
) {
  const answers: [string, ApiResponse][] = [];
  for (const route of contract.routes().filter(only)) {
    const [method = "", template = ""] = route.split(" ");
    const path =
      template
        .replace("{partner_id}", partnerId)
        .replace("{date}", "2026-01-02")
        .replace(/\{\w+\}/g, "x") + (QUERIES[route] ?? "");
    const body = BODIES[route];
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> =
      listener === "admin"
        ? template === "/admin/session"
          ? // The static token needs no database; a session cookie is looked up in it.
            { cookie: "payouts_admin_session=ses_x", "x-requested-with": "test" }
          : { authorization: `Bearer ${ADMIN_TOKEN}`, "x-idempotency-key": `k-${route}` }
        : {
            authorization: `Basic ${Buffer.from(`ci_failures:${SECRET}`).toString("base64")}`,
            "x-idempotency-key": `k-${route}`,
          };
    if (route === "POST /callbacks/rail" && text !== undefined) {
      const timestamp = railCallbackTimestamp(new Date());
      headers["x-rail-timestamp"] = timestamp;
      headers["x-rail-signature"] = railCallbackSignature(RAIL_SECRET, timestamp, text);
    }
    const res = await callJson(`${base}${path}`, method, headers, text);
    answers.push([route, contract.check(method, template, res)]);
  }
  return answers;
}

describe("500 and 503 on every documented route", () => {
  it("answers 503 SERVICE_UNAVAILABLE with Retry-After when the services, then also the database, are unreachable", async () => {
    const closed = () => every(() => createServiceTransport(`http://127.0.0.1:${closedPort}`));
    const closedPort = await freePort();
    // The services down, the database up (credentials still check): every route that calls a service.
    const servicesDown = await startWith(db, closed());
    // The database down too: the admin routes that use only the database (apps and their secrets).
    const gone = createPgDatabase({
      connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/none`,
    });
    const allDown = await startWith(gone, closed());
    try {
      const answers = [
        ...(await callEveryRoute(partner, `http://127.0.0.1:${servicesDown.partnerPort}`, "partner")),
        ...(await callEveryRoute(admin, `http://127.0.0.1:${servicesDown.adminPort}`, "admin")),
        ...(await callEveryRoute(
          admin,
          `http://127.0.0.1:${allDown.adminPort}`,
          "admin",
          (route) => admin.unseen((s) => s !== `${route} 503`).length > 0,
        )),
      ];
      for (const [route, res] of answers) {
        if (res.status !== 503 || route === "GET /readyz") continue;
        expect(res.json.code, route).toBe("SERVICE_UNAVAILABLE");
        expect(Number(res.headers.get("retry-after")), route).toBeGreaterThan(0);
      }
    } finally {
      await servicesDown.close();
      await allDown.close();
      await gone.close();
    }
  }, 180_000);

  it("answers 500 INTERNAL, disclosing nothing, when a service or the database fails unexpectedly", async () => {
    // A service that answers every call with UNIMPLEMENTED: an error no status table expects.
    const failing = await startWith(
      db,
      every(() => createRouterTransport(() => {})),
    );
    const broken = await startWith(
      brokenDatabase(),
      every(() => createRouterTransport(() => {})),
    );
    try {
      for (const gateway of [failing, broken]) {
        for (const [contract, base, listener] of [
          [partner, `http://127.0.0.1:${gateway.partnerPort}`, "partner"],
          [admin, `http://127.0.0.1:${gateway.adminPort}`, "admin"],
        ] as const) {
          for (const [route, res] of await callEveryRoute(contract, base, listener)) {
            if (res.status !== 500) continue;
            expect(res.json.code, route).toBe("INTERNAL");
            expect(res.text, route).not.toMatch(/planted|UNIMPLEMENTED|stack/i);
          }
        }
      }
    } finally {
      await failing.close();
      await broken.close();
    }
  });

  it("has seen every documented 500 and 503", () => {
    const onlyFailures = (s: string) => !/ (500|503)$/.test(s);
    expect(partner.unseen(onlyFailures)).toEqual([]);
    expect(admin.unseen(onlyFailures)).toEqual([]);
  });
});
