import { createServer, type Server, type Socket } from "node:net";
import { Writable } from "node:stream";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { GATEWAY_MIGRATIONS } from "@payouts/gateway/edge";
import { hashSecret } from "@payouts/gateway/internal/auth/secret-hash";
import { loadGatewayConfig } from "@payouts/gateway/internal/gateway-config";
import {
  type GatewayHandle,
  type GatewayTransports,
  startGateway,
} from "@payouts/gateway/internal/gateway-server";
import { insertApp, insertPartner } from "@payouts/gateway/internal/store/partner-store";
import { createLedgerService, LEDGER_MIGRATIONS } from "@payouts/ledger/ledger-service";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { createLogger } from "@payouts/platform/logging/logger";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destination } from "../ledger/support/ledger-harness.js";
import { type ApiResponse, callJson } from "../support/call-json.js";
import { freePort } from "../support/free-port.js";
import { createTestDatabase } from "../support/infra.js";

/**
 * A dependency that is down (a gRPC service not listening or not answering, PostgreSQL
 * unreachable) is 503 SERVICE_UNAVAILABLE with Retry-After and the error body, logged as a warning.
 */
const ADMIN_TOKEN = "test-admin-token-0123456789";
const SECRET = "cs_test_secret_for_unavailable_dependencies";

interface LogLine {
  level: string;
  message: string;
}

/** A real gateway on free ports in front of `transports` and `db`, with its log lines kept. */
async function startLoggedGateway(db: Database, transports: GatewayTransports) {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadGatewayConfig({
    PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    HOST: "127.0.0.1",
    ADMIN_TOKEN,
    RAIL_CALLBACK_SECRET: "test-rail-callback-secret-of-32-bytes",
  });
  const logger = createLogger({ service: "test", level: "info", destination });
  const gateway = await startGateway({ config, db, transports, logger });
  return { gateway, lines };
}

const everyService = (make: () => GatewayTransports["ledger"]): GatewayTransports => ({
  lookup: make(),
  pricing: make(),
  ledger: make(),
  webhooks: make(),
  rail: make(),
});

function partnerCall(gateway: GatewayHandle, method: string, path: string, body?: unknown) {
  const auth = `Basic ${Buffer.from(`ci_unavailable:${SECRET}`).toString("base64")}`;
  return callJson(`http://127.0.0.1:${gateway.partnerPort}${path}`, method, { authorization: auth }, body);
}

function adminCall(gateway: GatewayHandle, method: string, path: string, body?: unknown) {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, "X-Idempotency-Key": `unavailable-${path}` };
  return callJson(`http://127.0.0.1:${gateway.adminPort}${path}`, method, headers, body);
}

function expectUnavailable(res: ApiResponse, lines: LogLine[], where: string) {
  expect(res.status, where).toBe(503);
  expect(Number(res.headers.get("retry-after")), where).toBeGreaterThan(0);
  expect(res.json.code, where).toBe("SERVICE_UNAVAILABLE");
  expect(res.json.request_id, where).toBe(res.headers.get("x-request-id"));
  expect(res.text, where).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
  expect(
    lines.filter((l) => l.message === "unhandled error"),
    where,
  ).toEqual([]);
  expect(lines.filter((l) => l.message === "dependency unavailable").length, where).toBeGreaterThan(0);
  expect(lines.find((l) => l.message === "dependency unavailable")?.level).toBe("warn");
}

describe("services that are down", () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: Database & { pool: { end(): Promise<void> } };
  let partnerId: string;
  const servers: Server[] = [];
  const held: Socket[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPgDatabase({ connectionString: database.url });
    await migrate(db, GATEWAY_MIGRATIONS);
    partnerId = (await insertPartner(db, "ptr_unavailable", "Unavailable deps")).partner_id;
    await insertApp(db, {
      clientId: "ci_unavailable",
      partnerId,
      secretHash: await hashSecret(SECRET),
      previewRateLimitPerMinute: 600,
    });
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    for (const server of servers) server.close();
    await db.close();
    await database.drop();
  });

  it("answers 503 with Retry-After when no service listens on its port", async () => {
    const closedPort = await freePort();
    const { gateway, lines } = await startLoggedGateway(
      db,
      everyService(() => createServiceTransport(`http://127.0.0.1:${closedPort}`)),
    );
    try {
      expectUnavailable(await partnerCall(gateway, "GET", "/balance"), lines, "partner GET /balance");
      expectUnavailable(
        await partnerCall(gateway, "POST", "/getQuotation", { tx_id: "tx_x", amount: 100 }),
        lines,
        "partner POST /getQuotation",
      );
      expectUnavailable(
        await adminCall(gateway, "POST", `/admin/partners/${partnerId}/balance/credits`, {
          amount_usd: "10",
          reference: "r",
        }),
        lines,
        "admin credits",
      );
      expectUnavailable(
        await adminCall(gateway, "GET", "/admin/fx-rates"),
        lines,
        "admin GET /admin/fx-rates",
      );
    } finally {
      await gateway.close();
    }
  });

  it("answers 503 with Retry-After when a service accepts connections but never answers", async () => {
    const silent = createServer((socket) => held.push(socket));
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const { gateway, lines } = await startLoggedGateway(
      db,
      everyService(() => createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}`, defaultTimeoutMs: 300 })),
    );
    try {
      expectUnavailable(await partnerCall(gateway, "GET", "/balance"), lines, "partner GET /balance");
      expectUnavailable(
        await adminCall(gateway, "GET", `/admin/partners/${partnerId}/balance`),
        lines,
        "admin balance",
      );
    } finally {
      await gateway.close();
    }
  });
});

describe("pricing down behind the ledger (getQuotation: gateway → ledger → pricing)", () => {
  it("answers 503 with Retry-After whether pricing refuses connections or never answers, storing nothing", async () => {
    const database = await createTestDatabase();
    const db = createPgDatabase({ connectionString: database.url });
    const silent = createServer((socket) => socket.on("error", () => {}));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      await migrate(db, GATEWAY_MIGRATIONS);
      await migrate(db, LEDGER_MIGRATIONS);
      const partnerId = (await insertPartner(db, "ptr_pricing_down", "Pricing down")).partner_id;
      await insertApp(db, {
        clientId: "ci_unavailable",
        partnerId,
        secretHash: await hashSecret(SECRET),
        previewRateLimitPerMinute: 600,
      });
      const closedPort = await freePort();
      const { port: silentPort } = silent.address() as { port: number };
      const pricingDown = {
        "refusing connections": createServiceTransport(`http://127.0.0.1:${closedPort}`),
        "never answering": createGrpcTransport({
          baseUrl: `http://127.0.0.1:${silentPort}`,
          defaultTimeoutMs: 300,
        }),
      };
      for (const [how, pricing] of Object.entries(pricingDown)) {
        const ledgerModule = createLedgerService({
          db,
          bus: createInProcessEventBus(),
          logger: createLogger({ service: "ledger-test", level: "silent" }),
          transports: { pricing },
          env: {},
          mode: "distributed",
        });
        const ledgerTransport = createRouterTransport((router) => ledgerModule.routes(router));
        const ledger = createClient(LedgerService, ledgerTransport);
        const created = await ledger.createTransaction({
          partnerId,
          customerId: "cus_1",
          destination: destination(),
        });
        const txId = created.transaction!.txId;
        const { gateway, lines } = await startLoggedGateway(db, {
          ...everyService(() => createServiceTransport(`http://127.0.0.1:${closedPort}`)),
          ledger: ledgerTransport,
        });
        try {
          const res = await partnerCall(gateway, "POST", "/getQuotation", { tx_id: txId, amount: 15000 });
          expectUnavailable(res, lines, `getQuotation, pricing ${how}`);
          expect(res.headers.get("retry-after")).toBe("5");
          expect((await ledger.getTransaction({ partnerId, txId })).transaction?.quote).toBeUndefined();
        } finally {
          await gateway.close();
        }
      }
    } finally {
      silent.close();
      await db.close();
      await database.drop();
    }
  });
});

describe("a database that is down", () => {
  it("answers 503 with Retry-After on partner and admin routes, and /readyz says not ready", async () => {
    const closedPort = await freePort();
    const down = createPgDatabase({ connectionString: `postgres://postgres@127.0.0.1:${closedPort}/none` });
    const services = await freePort();
    const { gateway, lines } = await startLoggedGateway(
      down,
      everyService(() => createServiceTransport(`http://127.0.0.1:${services}`)),
    );
    try {
      expectUnavailable(await partnerCall(gateway, "GET", "/balance"), lines, "partner GET /balance");
      expectUnavailable(
        await adminCall(gateway, "POST", "/admin/partners/ptr_x/apps", {}),
        lines,
        "admin POST apps",
      );
      const ready = await callJson(`http://127.0.0.1:${gateway.adminPort}/readyz`, "GET", {});
      expect(ready.status).toBe(503);
    } finally {
      await gateway.close();
      await down.close();
    }
  });
});
