import type { ConnectRouter, Transport } from "@connectrpc/connect";
import type { Database } from "./database/database.js";
import type { MigrationSet } from "./database/migrate.js";
import type { EventBus } from "./events/event-bus.js";
import type { Logger } from "./logging/logger.js";

/**
 * What every service package exports (`createXService(context)`), so the same service runs as its own
 * process (distributed mode: gRPC server + Kafka + PostgreSQL) or inside the embedded process (router
 * transports + in-process bus + PGlite) without a line of difference.
 */
export interface ServiceModule {
  /** Short role name: lookup, pricing, ledger, webhooks, sandbox-rail. */
  readonly name: string;
  /** Fully-qualified gRPC service names, reported by grpc.health.v1. */
  readonly serviceNames: readonly string[];
  readonly migrations?: MigrationSet;
  routes(router: ConnectRouter): void;
  /** Starts background work (relays, consumers, workers); called after migrations. */
  start(): Promise<void>;
  /** Stops background work; in-flight units finish or are safely abandoned. */
  stop(): Promise<void>;
}

/** Transports to the other services, by role name; absent when a service does not need one. */
export interface ServiceTransports {
  readonly lookup?: Transport;
  readonly pricing?: Transport;
  readonly ledger?: Transport;
  readonly webhooks?: Transport;
  readonly rail?: Transport;
}

export interface ServiceContext {
  readonly db: Database;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly transports: ServiceTransports;
  /** The process environment, for the service's own typed config. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** "embedded" relaxes sandbox-only defaults (e.g. private webhook URLs allowed). */
  readonly mode: "embedded" | "distributed";
  readonly now?: () => Date;
}
