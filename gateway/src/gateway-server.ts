import type { Transport } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import type { ServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import { type ServiceTokenSigner, transportsSignedBy } from "@payouts/platform/rpc/service-credentials";
import { BatchService } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { LedgerAdminService } from "@payouts/proto/payouts/ledger/v1/ledger_admin_pb";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { ReconciliationService } from "@payouts/proto/payouts/ledger/v1/reconciliation_pb";
import { StatementService } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import { WebhookAdminService } from "@payouts/proto/payouts/webhooks/v1/webhooks_admin_pb";
import { WebhookService } from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import type { FastifyInstance } from "fastify";
import { buildAdminApp } from "./admin-app.js";
import { createCredentialVerifier } from "./auth/credential-verifier.js";
import type { SecretHasher } from "./auth/secret-hash.js";
import type { GatewayConfig } from "./gateway-config.js";
import type { GatewayDeps, ServiceClients } from "./gateway-deps.js";
import { drainOnClose } from "./http/drain-on-close.js";
import { buildPartnerApp } from "./partner-app.js";

export interface GatewayTransports {
  readonly lookup: Transport;
  readonly pricing: Transport;
  readonly ledger: Transport;
  readonly webhooks: Transport;
  readonly rail: Transport;
}

/** The gateway's service identities, one signer each (caller-allowlist.ts); absent = calls go without. */
export type GatewayServiceSigners = {
  readonly [caller in Extract<ServiceCaller, `gateway${string}`>]?: ServiceTokenSigner | undefined;
};

export interface GatewayHandle {
  readonly partnerPort: number;
  readonly adminPort: number;
  /** What the partner listener's routes use (caller "gateway"). */
  readonly deps: GatewayDeps;
  /** What the admin listener's routes use (caller "gateway-admin"), e.g. the embedded sandbox seeding. */
  readonly adminDeps: GatewayDeps;
  /** The partner listener's fastify instance, for route introspection (e.g. the OpenAPI test). */
  readonly partnerApp: FastifyInstance;
  /** The admin listener's fastify instance, for route introspection (the admin access test, the fuzz suite). */
  readonly adminApp: FastifyInstance;
  close(): Promise<void>;
}

export function createServiceClients(t: GatewayTransports): ServiceClients {
  return {
    lookup: createClient(LookupService, t.lookup),
    pricing: createClient(PricingService, t.pricing),
    ledger: createClient(LedgerService, t.ledger),
    statements: createClient(StatementService, t.ledger),
    webhooks: createClient(WebhookService, t.webhooks),
    rail: createClient(RailService, t.rail),
    ledgerAdmin: createClient(LedgerAdminService, t.ledger),
    reconciliation: createClient(ReconciliationService, t.ledger),
    batches: createClient(BatchService, t.ledger),
    webhooksAdmin: createClient(WebhookAdminService, t.webhooks),
  };
}

/** Starts the partner and admin listeners. The gateway schema must already be migrated. */
export async function startGateway(options: {
  config: GatewayConfig;
  db: Database;
  transports: GatewayTransports;
  serviceSigners?: GatewayServiceSigners;
  logger: Logger;
  /** Checks client secrets; scrypt unless a test counts or pauses the work. */
  secretHasher?: SecretHasher;
}): Promise<GatewayHandle> {
  const { config, db, logger } = options;
  const signers = options.serviceSigners ?? {};
  const deps: GatewayDeps = {
    db,
    clients: createServiceClients(transportsSignedBy(options.transports, signers.gateway)),
    railCallbackLedger: createClient(
      LedgerService,
      transportsSignedBy(options.transports, signers["gateway-rail"]).ledger,
    ),
    verifier: createCredentialVerifier(db, {
      cacheTtlMs: config.authCacheTtlMs,
      knownGoodTtlMs: config.authKnownGoodTtlMs,
      negativeTtlMs: config.authNegativeCacheTtlMs,
      failuresPerAddress: config.authFailuresPerAddress,
      failureWindowMs: config.authFailureWindowMs,
      maxConcurrentChecks: config.authMaxConcurrentChecks,
      maxQueuedChecks: config.authMaxQueuedChecks,
      ...(options.secretHasher ? { hasher: options.secretHasher } : {}),
    }),
    logger,
    config,
  };
  const adminDeps: GatewayDeps = {
    ...deps,
    clients: createServiceClients(transportsSignedBy(options.transports, signers["gateway-admin"])),
  };
  const partner = await buildPartnerApp(deps);
  const admin = await buildAdminApp(adminDeps, async () => {
    await db.query("SELECT 1");
    return true;
  });
  drainOnClose(partner);
  drainOnClose(admin);
  const partnerPort = await listen(partner, config.port, config.host);
  const adminPort = await listen(admin, config.adminPort, config.host);
  logger.info({ partnerPort, adminPort }, "gateway listening");
  return {
    partnerPort,
    adminPort,
    deps,
    adminDeps,
    partnerApp: partner,
    adminApp: admin,
    close: async () => {
      await Promise.all([partner.close(), admin.close()]);
    },
  };
}

async function listen(app: FastifyInstance, port: number, host: string): Promise<number> {
  await app.listen({ port, host });
  const address = app.server.address();
  return typeof address === "object" && address ? address.port : port;
}
