#!/usr/bin/env node
import { loadGatewayConfig, startGateway, verifyAuditChain } from "@payouts/gateway/edge";
import { ConfigError, isProductionMode } from "@payouts/platform/config/env-config";
import { listenHost } from "@payouts/platform/config/listen-host";
import type { Queryable } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { provisionServiceRoles, serviceRoleProblems } from "@payouts/platform/database/service-roles";
import { waitForDatabase } from "@payouts/platform/database/wait-for-database";
import type { EventBus } from "@payouts/platform/events/event-bus";
import { generateEventSigningKeys } from "@payouts/platform/events/event-signature";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { loadKafkaSecurity, loadKafkaTiming } from "@payouts/platform/events/kafka-client-config";
import { createKafkaEventBus } from "@payouts/platform/events/kafka-event-bus";
import { onShutdown } from "@payouts/platform/lifecycle";
import { createLogger } from "@payouts/platform/logging/logger";
import { isServiceCaller, PROCESS_CALLERS, type ServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import { startGrpcServer } from "@payouts/platform/rpc/grpc-server";
import { loadGrpcTls } from "@payouts/platform/rpc/grpc-tls";
import { loadServiceAuthConfig, type ServiceAuthConfig } from "@payouts/platform/rpc/service-auth-config";
import {
  generateServiceCredentials,
  isServiceAudience,
  SERVICE_AUDIENCES,
  transportsSignedBy,
} from "@payouts/platform/rpc/service-credentials";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import { startMetricsServer } from "@payouts/platform/telemetry/metrics-server";
import { shutdownTelemetry, startTelemetry } from "@payouts/platform/telemetry/start-telemetry";
import { traceEventBus } from "@payouts/platform/telemetry/traced-event-bus";
import {
  ALL_SCHEMAS,
  DATABASE_USERS,
  type DatabaseProcess,
  generateServiceDatabaseUrls,
  processDatabaseUrl,
  roleGrantsFromEnv,
} from "./database-roles.js";
import { commandErrorMessage, OPERATOR_USAGE, runOperatorCommand } from "./operator-commands.js";
import { allMigrations, SERVICE_ROLES, type ServiceRole } from "./service-roles.js";

/**
 * One entry point for every process of the distributed mode:
 *   node services/runtime/dist/cli.js <gateway|lookup|pricing|ledger|webhooks|sandbox-rail|migrate>
 * and `service-credentials`, which prints fresh service key pairs as KEY=value lines (SERVICE_CALLER_KEYS,
 * GATEWAY_SERVICE_PRIVATE_KEYS, LEDGER_SERVICE_PRIVATE_KEYS) for a Secret or a launcher,
 * `service-token <caller> <service>`, which prints one short-lived token signed with SERVICE_PRIVATE_KEYS,
 * `event-signing-keys`, which prints a fresh Ed25519 pair (EVENT_SIGNING_KEY for the ledger,
 * EVENT_VERIFY_KEYS for the webhooks service), and `database-urls`, which prints each
 * service's own `<SERVICE>_DATABASE_URL` (a role `<prefix>_<service>`, DATABASE_ROLE_PREFIX, default
 * payouts, with a fresh password) on the server and database of DATABASE_URL; `operators` and
 * `machine-credentials` manage who may use the admin API (operator-commands.ts); `audit-verify` (or
 * `audit verify`, as in `npx payouts audit verify`) walks the
 * admin audit trail's hash chain (GATEWAY_DATABASE_URL, else DATABASE_URL), prints the verdict as one JSON
 * line and exits 1 when the chain is broken (0 when it is whole).
 * (`npm start` runs the embedded mode instead: services/runtime/src/embedded.ts.)
 */
/** Former role names, still accepted with a warning: each names the role it became. */
const FORMER_ROLES: Readonly<Record<string, string>> = { "webhook-dispatcher": "webhooks" };
const givenRole = process.argv[2] ?? "";
const role = FORMER_ROLES[givenRole] ?? givenRole;
const env = process.env;
const logger = createLogger({ service: role || "payouts", level: env.LOG_LEVEL ?? "info" });
if (role !== givenRole) logger.warn(`role "${givenRole}" is deprecated: run "${role}" instead`);

function requireEnv(name: string): string {
  const value = env[name];
  if (!value) {
    logger.fatal(`${name} is required for role ${role}`);
    process.exit(2);
  }
  return value;
}

/** A piece of configuration, or exit 2 with every problem it has. */
function configured<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger.fatal(error.message);
    process.exit(2);
  }
}

/** The URL of the process's own database role: `<SERVICE>_DATABASE_URL`, else `DATABASE_URL`. */
function databaseUrl(who: DatabaseProcess): string {
  const url = processDatabaseUrl(env, who);
  if (!url) {
    logger.fatal(`${DATABASE_USERS[who].urlEnv} (or DATABASE_URL) is required for role ${role}`);
    process.exit(2);
  }
  return url;
}

/**
 * A service connects as its own role, which may use its own schema's rows and nothing more. A role that
 * could change schemas or reach another service's data (the migration role, a superuser) is refused in
 * production and warned about elsewhere.
 */
async function checkOwnRole(db: Queryable, who: DatabaseProcess): Promise<void> {
  const problems = await serviceRoleProblems(db, DATABASE_USERS[who].schema, ALL_SCHEMAS);
  if (problems.length === 0) return;
  const message =
    `${role} must connect as its own database role (${DATABASE_USERS[who].urlEnv}, created by migrate): ` +
    problems.join("; ");
  if (isProductionMode(env)) {
    logger.fatal(message);
    process.exit(2);
  }
  logger.warn(message);
}

/** The process's service credentials; a production process without the ones it needs does not start. */
function serviceAuth(needs: Parameters<typeof loadServiceAuthConfig>[1]): ServiceAuthConfig {
  const auth = configured(() => loadServiceAuthConfig(env, needs));
  if (needs.server !== undefined && auth.verifier === undefined) {
    logger.warn("SERVICE_CALLER_KEYS is not set: every RPC except grpc.health.v1 will be refused");
  }
  return auth;
}

async function main(): Promise<void> {
  if (role === "service-credentials") {
    const credentials = generateServiceCredentials();
    process.stdout.write(
      `SERVICE_CALLER_KEYS=${credentials.callerKeys}\n` +
        `GATEWAY_SERVICE_PRIVATE_KEYS=${credentials.processKeys.gateway}\n` +
        `LEDGER_SERVICE_PRIVATE_KEYS=${credentials.processKeys.ledger}\n`,
    );
    return;
  }
  if (role === "service-token") {
    // `service-token <caller> <audience>`: one token for calling a service by hand (grpcurl), signed
    // with the caller's key from SERVICE_PRIVATE_KEYS; valid for TOKEN_LIFETIME_SECONDS.
    const [caller = "", audience = ""] = process.argv.slice(3);
    const signer = configured(() =>
      loadServiceAuthConfig(env, { server: undefined, callers: [] }),
    ).signers.get(caller as ServiceCaller);
    if (signer === undefined || !isServiceAudience(audience)) {
      logger.fatal(
        `usage: SERVICE_PRIVATE_KEYS=<caller>:<key> service-token <caller> <${SERVICE_AUDIENCES.join("|")}>`,
      );
      process.exit(2);
    }
    process.stdout.write(`${await signer.tokenFor(audience)}\n`);
    return;
  }
  if (role === "event-signing-keys") {
    const keys = generateEventSigningKeys();
    process.stdout.write(`EVENT_SIGNING_KEY=${keys.signingKey}\nEVENT_VERIFY_KEYS=${keys.verifyKey}\n`);
    return;
  }
  if (role === "database-urls") {
    const urls = generateServiceDatabaseUrls(
      requireEnv("DATABASE_URL"),
      env.DATABASE_ROLE_PREFIX || undefined,
    );
    process.stdout.write(
      Object.entries(urls)
        .map(([name, url]) => `${name}=${url}\n`)
        .join(""),
    );
    return;
  }
  if (role === "audit-verify" || (role === "audit" && process.argv[3] === "verify")) {
    const db = createPgDatabase({ connectionString: databaseUrl("gateway"), maxConnections: 1 });
    try {
      const verdict = await verifyAuditChain(db);
      process.stdout.write(`${JSON.stringify(verdict)}\n`);
      if (!verdict.ok) {
        process.stderr.write(`audit trail broken at sequence ${verdict.brokenAt}: ${verdict.problem}\n`);
        process.exitCode = 1;
      } else {
        process.stderr.write(`audit trail intact through sequence ${verdict.verifiedThrough}\n`);
      }
    } finally {
      await db.close();
    }
    return;
  }
  if (role === "operators" || role === "machine-credentials") {
    const db = createPgDatabase({ connectionString: databaseUrl("gateway"), maxConnections: 1 });
    try {
      const out = await runOperatorCommand(db, env, role, process.argv.slice(3), readStdin);
      process.stdout.write(`${out}\n`);
    } catch (error) {
      const message = commandErrorMessage(error);
      if (message === undefined) throw error;
      process.stderr.write(message === OPERATOR_USAGE ? `${message}\n` : `${message}\n${OPERATOR_USAGE}\n`);
      process.exitCode = 2;
    } finally {
      await db.close();
    }
    return;
  }
  if (role === "migrate") {
    const grants = configured(() => roleGrantsFromEnv(env, { requireAll: isProductionMode(env) }));
    const db = createPgDatabase({ connectionString: requireEnv("DATABASE_URL"), maxConnections: 2 });
    await waitForDatabase(db, logger);
    for (const set of await allMigrations()) {
      const applied = await migrate(db, set);
      logger.info({ schema: set.schema, applied }, "migrated");
    }
    if (grants.length > 0) {
      await provisionServiceRoles(db, grants, { allSchemas: ALL_SCHEMAS });
      logger.info({ roles: grants.map((g) => g.role) }, "service roles provisioned");
    } else {
      logger.warn("no <SERVICE>_DATABASE_URL given: no service roles provisioned (required in production)");
    }
    await db.close();
    return;
  }
  if (role !== "gateway" && !(role in SERVICE_ROLES)) {
    logger.fatal(
      `unknown role "${role}"; expected gateway, migrate or one of ${Object.keys(SERVICE_ROLES).join(", ")}`,
    );
    process.exit(2);
  }
  // Already started by the preloaded instrumentation module when the process runs as documented.
  const telemetry = await startTelemetry({ env, serviceName: `payouts-${role}` });
  const host = listenHost(env);
  const auth = serviceAuth({
    server: role === "gateway" ? undefined : SERVICE_ROLES[role as ServiceRole].transportKey,
    callers: role === "gateway" ? PROCESS_CALLERS.gateway : role === "ledger" ? PROCESS_CALLERS.ledger : [],
  });
  const tls = configured(() => loadGrpcTls(env));
  const metrics = await startMetricsServer({ telemetry, host, logger });
  const transports = {
    lookup: createServiceTransport(env.LOOKUP_ADDR ?? "http://127.0.0.1:50051", [], tls),
    pricing: createServiceTransport(env.PRICING_ADDR ?? "http://127.0.0.1:50052", [], tls),
    ledger: createServiceTransport(env.LEDGER_ADDR ?? "http://127.0.0.1:50053", [], tls),
    webhooks: createServiceTransport(env.WEBHOOKS_ADDR ?? "http://127.0.0.1:50054", [], tls),
    rail: createServiceTransport(env.RAIL_ADDR ?? "http://127.0.0.1:50055", [], tls),
  };
  if (role === "gateway") {
    const db = createPgDatabase({ connectionString: databaseUrl("gateway"), applicationName: "gateway" });
    await waitForDatabase(db, logger);
    await checkOwnRole(db, "gateway");
    const gateway = await startGateway({
      config: loadGatewayConfig(env),
      db,
      transports,
      serviceSigners: {
        gateway: auth.signers.get("gateway"),
        "gateway-admin": auth.signers.get("gateway-admin"),
        "gateway-rail": auth.signers.get("gateway-rail"),
      },
      logger,
    });
    onShutdown(logger, async () => {
      await gateway.close();
      await db.close();
      await metrics.close();
      await shutdownTelemetry();
    });
    return;
  }
  const spec = SERVICE_ROLES[role as ServiceRole];
  if (!spec) {
    logger.fatal(
      `unknown role "${role}"; expected gateway, migrate or one of ${Object.keys(SERVICE_ROLES).join(", ")}`,
    );
    process.exit(2);
  }
  const db = createPgDatabase({ connectionString: databaseUrl(role as ServiceRole), applicationName: role });
  const bus: EventBus = traceEventBus(
    env.KAFKA_BROKERS
      ? createKafkaEventBus({
          brokers: env.KAFKA_BROKERS.split(","),
          clientId: role,
          security: configured(() => loadKafkaSecurity(env)),
          timing: configured(() => loadKafkaTiming(env)),
        })
      : createInProcessEventBus(),
  );
  // A service that calls others (the ledger calls the rail) does so as itself.
  const ownSigner = isServiceCaller(role) ? auth.signers.get(role) : undefined;
  const outgoing = transportsSignedBy(transports, ownSigner);
  // Creating the module reads its settings: a wrong one fails now, before any wait for the database.
  const { create } = await spec.load();
  const module = create({ db, bus, logger, transports: outgoing, env, mode: "distributed" });
  // A process (re)started while PostgreSQL restarts waits for it rather than exiting.
  await waitForDatabase(db, logger);
  await checkOwnRole(db, role as ServiceRole);
  const server = await startGrpcServer({
    name: role,
    port: Number(env.PORT ?? spec.defaultPort),
    host,
    auth: { verifier: auth.verifier, logger },
    tls,
    healthPort: env.GRPC_HEALTH_PORT ? Number(env.GRPC_HEALTH_PORT) : undefined,
    serviceNames: module.serviceNames,
    routes: (router) => module.routes(router),
    logger,
  });
  // Not ready until the module's background work (consumers, relays, workers) runs.
  server.health.setServing(false);
  await module.start();
  server.health.setServing(true);
  onShutdown(logger, async () => {
    await server.close();
    await module.stop();
    await bus.close();
    await db.close();
    await metrics.close();
    await shutdownTelemetry();
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, "failed to start");
  process.exit(1);
});
