import { createRouterTransport, type Interceptor, type Transport } from "@connectrpc/connect";
import {
  type GatewayHandle,
  loadGatewayConfig,
  localBaseUrl,
  type SecretHasher,
  startGateway,
} from "@payouts/gateway/edge";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createPgliteDatabase } from "@payouts/platform/database/pglite-database";
import { provisionServiceRoles } from "@payouts/platform/database/service-roles";
import type { EventBus } from "@payouts/platform/events/event-bus";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { loadKafkaSecurity, loadKafkaTiming } from "@payouts/platform/events/kafka-client-config";
import { createKafkaEventBus } from "@payouts/platform/events/kafka-event-bus";
import type { Logger } from "@payouts/platform/logging/logger";
import { isServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import { serverInterceptors } from "@payouts/platform/rpc/grpc-server";
import {
  generateServiceCredentials,
  signerOf,
  transportsSignedBy,
  verifierOf,
} from "@payouts/platform/rpc/service-credentials";
import { clientInterceptors } from "@payouts/platform/rpc/service-transport";
import type { ServiceModule } from "@payouts/platform/service-module";
import { startTelemetry } from "@payouts/platform/telemetry/start-telemetry";
import { traceEventBus } from "@payouts/platform/telemetry/traced-event-bus";
import { ALL_SCHEMAS, DATABASE_USERS, type DatabaseProcess, embeddedRoleGrants } from "./database-roles.js";
import { embeddedEventKeys } from "./embedded-event-keys.js";
import { allMigrations, SERVICE_ROLES } from "./service-roles.js";

export interface EmbeddedOptions {
  readonly env: Record<string, string | undefined>;
  readonly logger: Logger;
  /** PGlite data directory when DATABASE_URL is unset; in memory when undefined. */
  readonly dataDir?: string;
  /** The gateway's client secret checks; scrypt unless a test counts them. */
  readonly secretHasher?: SecretHasher;
  /** Observes the runtime without changing what it does (the cost-anatomy harness counts through it). */
  readonly instrument?: EmbeddedInstrumentation;
}

/**
 * Decorators and interceptors for measuring: each must pass every call through unchanged. `database`
 * wraps the database once per user (each service role, and "gateway"); the bus wrapper sees every
 * publish; the interceptors run innermost on every call between in-process services (the gateway's
 * included), in the caller's async context.
 */
export interface EmbeddedInstrumentation {
  readonly database?: (db: Database, user: string) => Database;
  readonly bus?: (bus: EventBus) => EventBus;
  readonly rpcInterceptors?: readonly Interceptor[];
}

export interface EmbeddedHandle {
  readonly gateway: GatewayHandle;
  /** The migration role's connection (PGlite's only one); services use their own roles' connections. */
  readonly db: Database;
  readonly modules: readonly ServiceModule[];
  /** Each service's in-process transport as a caller without credentials would reach it (tests). */
  readonly transports: Readonly<Record<string, Transport>>;
  close(): Promise<void>;
}

/**
 * Every service in one process: the same service modules as the distributed mode, reached through
 * in-process Connect router transports instead of gRPC ports. PostgreSQL and Kafka are used when
 * DATABASE_URL / KAFKA_BROKERS are set; otherwise PGlite and the in-process bus.
 *
 * On PostgreSQL, DATABASE_URL is the migration role's; each service (and the gateway) then acts as its own
 * role of least privilege (see serviceDatabases). PGlite has a single user: there all share one connection.
 */
export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedHandle> {
  const { env, logger } = options;
  const config = loadGatewayConfig(env, { embedded: true });
  // Metrics for the admin listener's /metrics; tracing only if a preloaded SDK (or a test) started it.
  await startTelemetry({ env, serviceName: "payouts-embedded", tracing: false });
  const instrument = options.instrument ?? {};
  const db: Database = env.DATABASE_URL
    ? createPgDatabase({ connectionString: env.DATABASE_URL, applicationName: "payouts-embedded" })
    : await createPgliteDatabase(options.dataDir);
  for (const set of await allMigrations()) await migrate(db, set);
  const own = env.DATABASE_URL ? await serviceDatabases(db, env.DATABASE_URL, logger) : undefined;
  const dbFor = (user: DatabaseProcess): Database => {
    const base = own?.get(user) ?? db;
    return instrument.database ? instrument.database(base, user) : base;
  };
  const rawBus: EventBus = traceEventBus(
    env.KAFKA_BROKERS
      ? createKafkaEventBus({
          brokers: env.KAFKA_BROKERS.split(","),
          clientId: "payouts-embedded",
          security: loadKafkaSecurity(env),
          timing: loadKafkaTiming(env),
        })
      : createInProcessEventBus(),
  );
  const bus = instrument.bus ? instrument.bus(rawBus) : rawBus;

  // WEBHOOK_ALLOW_PRIVATE_URLS is left to the dispatcher's default: private receivers only while HOST is
  // loopback (services/webhooks/src/config.ts), unless set explicitly.
  const serviceEnv = {
    RAIL_CALLBACK_URL: `${localBaseUrl(config.host, config.port)}/callbacks/rail`,
    ...env,
    RAIL_CALLBACK_SECRET: config.railCallbackSecret,
    ...embeddedEventKeys(env),
  };
  // Transports are resolved lazily so services can reach each other regardless of creation order.
  const transports: Record<string, Transport> = {};
  const lazy = (key: string): Transport => ({
    unary: (...args) => transports[key]!.unary(...args),
    stream: (...args) => transports[key]!.stream(...args),
  });
  const ctxTransports = {
    lookup: lazy("lookup"),
    pricing: lazy("pricing"),
    ledger: lazy("ledger"),
    webhooks: lazy("webhooks"),
    rail: lazy("rail"),
  };
  // The same caller rule as the distributed mode, with key pairs that live only as long as this process:
  // each service checks tokens addressed to itself, each caller signs its own.
  const credentials = generateServiceCredentials();
  const modules: ServiceModule[] = [];
  for (const [role, spec] of Object.entries(SERVICE_ROLES)) {
    const { create } = await spec.load();
    const module = create({
      db: dbFor(role as DatabaseProcess),
      bus,
      logger: logger.child({ service: spec.transportKey }),
      transports: transportsSignedBy(
        ctxTransports,
        isServiceCaller(role) ? signerOf(credentials, role) : undefined,
      ),
      env: serviceEnv,
      mode: "embedded",
    });
    transports[spec.transportKey] = createRouterTransport((router) => module.routes(router), {
      router: {
        interceptors: serverInterceptors({ verifier: verifierOf(credentials, spec.transportKey), logger }),
      },
      transport: { interceptors: [...clientInterceptors(), ...(instrument.rpcInterceptors ?? [])] },
    });
    modules.push(module);
  }
  const gateway = await startGateway({
    config,
    db: dbFor("gateway"),
    transports: ctxTransports,
    serviceSigners: {
      gateway: signerOf(credentials, "gateway"),
      "gateway-admin": signerOf(credentials, "gateway-admin"),
      "gateway-rail": signerOf(credentials, "gateway-rail"),
    },
    logger,
    ...(options.secretHasher ? { secretHasher: options.secretHasher } : {}),
  });
  for (const module of inStartOrder(modules)) await module.start();
  return {
    gateway,
    db,
    modules,
    transports,
    close: async () => {
      await gateway.close();
      for (const module of inStartOrder(modules).reverse()) await module.stop();
      await bus.close();
      for (const serviceDb of own?.values() ?? []) await serviceDb.close();
      await db.close();
    },
  };
}

/**
 * A connection pool per process role, each acting as that role (provisioned here: no login, its own
 * schema's rows only) over the login of DATABASE_URL, so the one-process mode runs with the grants of the
 * distributed one. A login that may not create roles (neither superuser nor CREATEROLE) gets a warning
 * and one shared pool instead.
 */
async function serviceDatabases(
  db: Database,
  url: string,
  logger: Logger,
): Promise<Map<DatabaseProcess, Database> | undefined> {
  const me = await db.query<{ can: boolean }>(
    "SELECT rolsuper OR rolcreaterole AS can FROM pg_roles WHERE rolname = current_user",
  );
  if (!me.rows[0]?.can) {
    logger.warn("DATABASE_URL's role may not create roles: every service shares it (no per-service roles)");
    return undefined;
  }
  await provisionServiceRoles(db, embeddedRoleGrants(), { allSchemas: ALL_SCHEMAS, assumable: true });
  const out = new Map<DatabaseProcess, Database>();
  for (const [who, user] of Object.entries(DATABASE_USERS) as [
    DatabaseProcess,
    (typeof DATABASE_USERS)[DatabaseProcess],
  ][]) {
    out.set(
      who,
      createPgDatabase({
        connectionString: url,
        applicationName: `payouts-${who}`,
        role: user.defaultRole,
        maxConnections: 5,
      }),
    );
  }
  return out;
}

/**
 * Consumers start before producers and stop after them, so the in-process bus always has the dispatcher
 * subscribed while the ledger's relay publishes: closing stops the gateway's listeners, then the sandbox
 * rail's poller, then the ledger (relay and loops), then the dispatcher (consumer, then workers), and
 * the database last.
 */
const STOP_ORDER = ["sandbox-rail", "ledger", "webhooks"];

function inStartOrder(modules: readonly ServiceModule[]): ServiceModule[] {
  const rank = (m: ServiceModule) => {
    const i = STOP_ORDER.indexOf(m.name);
    return i === -1 ? STOP_ORDER.length : i;
  };
  return [...modules].sort((a, b) => rank(b) - rank(a));
}
