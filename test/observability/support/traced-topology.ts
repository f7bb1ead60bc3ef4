/**
 * The distributed topology inside the test process: every service module behind its own real gRPC
 * (HTTP/2) server with its own database pool and Kafka client, reached through the same
 * `createServiceTransport` the distributed processes use, and the real gateway in front. Real
 * PostgreSQL, real Kafka, real HTTP/1.1 to the gateway and to the webhook receiver, so every hop a
 * trace crosses is a real transport; only the span collection is shared (one exporter in memory).
 */
import { randomBytes } from "node:crypto";
import { loadGatewayConfig } from "@payouts/gateway/internal/gateway-config";
import { type GatewayHandle, startGateway } from "@payouts/gateway/internal/gateway-server";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import type { EventBus } from "@payouts/platform/events/event-bus";
import { generateEventSigningKeys } from "@payouts/platform/events/event-signature";
import { createKafkaEventBus } from "@payouts/platform/events/kafka-event-bus";
import type { Logger } from "@payouts/platform/logging/logger";
import { type GrpcServerHandle, startGrpcServer } from "@payouts/platform/rpc/grpc-server";
import {
  generateServiceCredentials,
  signerOf,
  transportsSignedBy,
  verifierOf,
} from "@payouts/platform/rpc/service-credentials";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import type { ServiceModule } from "@payouts/platform/service-module";
import { traceEventBus } from "@payouts/platform/telemetry/traced-event-bus";
import { allMigrations, SERVICE_ROLES, type ServiceRole } from "@payouts/runtime/internal/service-roles";
import { callJson } from "../../support/call-json.js";
import { createTestDatabase, kafkaBrokers } from "../../support/infra.js";
import { ADMIN_TOKEN, type ApiResponse, type Credentials, freePort } from "../../support/test-platform.js";

export interface TracedTopology {
  readonly baseUrl: string;
  readonly adminUrl: string;
  admin(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  partner(
    creds: Credentials,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  close(): Promise<void>;
}

interface RunningService {
  readonly module: ServiceModule;
  readonly server: GrpcServerHandle;
  readonly db: Database;
  readonly bus: EventBus;
}

export async function startTracedTopology(options: {
  readonly logger: (service: string) => Logger;
  readonly env?: Record<string, string>;
}): Promise<TracedTopology> {
  const database = await createTestDatabase();
  const migrations = createPgDatabase({ connectionString: database.url, maxConnections: 2 });
  for (const set of await allMigrations()) await migrate(migrations, set);
  await migrations.close();

  const roles = Object.keys(SERVICE_ROLES) as ServiceRole[];
  const ports = Object.fromEntries(await Promise.all(roles.map(async (r) => [r, await freePort()] as const)));
  const gatewayPort = await freePort();
  const addr = (role: ServiceRole) => `http://127.0.0.1:${ports[role]}`;
  const credentials = generateServiceCredentials();
  // Every service reads one env here; only the ledger signs with EVENT_SIGNING_KEY.
  const eventKeyEnv = (keys: { signingKey: string; verifyKey: string }) => ({
    EVENT_SIGNING_KEY: keys.signingKey,
    EVENT_VERIFY_KEYS: keys.verifyKey,
  });
  const transports = {
    lookup: createServiceTransport(addr("lookup")),
    pricing: createServiceTransport(addr("pricing")),
    ledger: createServiceTransport(addr("ledger")),
    webhooks: createServiceTransport(addr("webhooks")),
    rail: createServiceTransport(addr("sandbox-rail")),
  };
  const env = {
    RAIL_CALLBACK_URL: `http://127.0.0.1:${gatewayPort}/callbacks/rail`,
    RAIL_CALLBACK_SECRET: "observability-rail-secret-of-32-bytes",
    SANDBOX_AUTO_SETTLE_MS: "0",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_CONSUMER_GROUP: `observability-${randomBytes(4).toString("hex")}`,
    WEBHOOK_RETRY_SCHEDULE_MS: "0,200,200",
    WEBHOOK_POLL_INTERVAL_MS: "50",
    QUOTE_TTL_MS: "600000",
    ...eventKeyEnv(generateEventSigningKeys()),
    ...options.env,
  };

  const services: RunningService[] = [];
  for (const role of roles) {
    const db = createPgDatabase({ connectionString: database.url, applicationName: role });
    const bus = traceEventBus(createKafkaEventBus({ brokers: kafkaBrokers(), clientId: `obs-${role}` }));
    const logger = options.logger(role);
    const { create } = await SERVICE_ROLES[role].load();
    const module = create({
      db,
      bus,
      logger,
      transports: transportsSignedBy(
        transports,
        role === "ledger" ? signerOf(credentials, "ledger") : undefined,
      ),
      env,
      mode: "distributed",
    });
    const server = await startGrpcServer({
      name: role,
      port: ports[role]!,
      host: "127.0.0.1",
      auth: { verifier: verifierOf(credentials, SERVICE_ROLES[role].transportKey) },
      serviceNames: module.serviceNames,
      routes: (router) => module.routes(router),
      logger,
    });
    services.push({ module, server, db, bus });
  }
  for (const s of services) await s.module.start();

  const gatewayDb = createPgDatabase({ connectionString: database.url, applicationName: "gateway" });
  const adminPort = await freePort();
  const gateway: GatewayHandle = await startGateway({
    config: loadGatewayConfig({
      ...env,
      PORT: String(gatewayPort),
      ADMIN_PORT: String(adminPort),
      HOST: "127.0.0.1",
      ADMIN_TOKEN,
    }),
    db: gatewayDb,
    transports,
    serviceSigners: {
      gateway: signerOf(credentials, "gateway"),
      "gateway-admin": signerOf(credentials, "gateway-admin"),
      "gateway-rail": signerOf(credentials, "gateway-rail"),
    },
    logger: options.logger("gateway"),
  });

  const baseUrl = `http://127.0.0.1:${gateway.partnerPort}`;
  const adminUrl = `http://127.0.0.1:${gateway.adminPort}`;
  return {
    baseUrl,
    adminUrl,
    admin: (method, path, body, headers = {}) =>
      callJson(`${adminUrl}${path}`, method, { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers }, body),
    partner: (creds, method, path, body, headers = {}) =>
      callJson(
        `${baseUrl}${path}`,
        method,
        {
          authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString("base64")}`,
          ...headers,
        },
        body,
      ),
    async close() {
      await gateway.close();
      for (const s of [...services].reverse()) {
        await s.server.close();
        await s.module.stop();
        await s.bus.close();
        await s.db.close();
      }
      await gatewayDb.close();
      await database.drop();
    },
  };
}
