import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLedgerService, LEDGER_MIGRATIONS } from "@payouts/ledger/ledger-service";
import { createLookupService, LOOKUP_MIGRATIONS } from "@payouts/lookup/lookup-service";
import type { MigrationSet } from "@payouts/platform/database/migrate";
import type { ServiceContext, ServiceModule } from "@payouts/platform/service-module";
import { createPricingService, PRICING_MIGRATIONS } from "@payouts/pricing/pricing-service";
import {
  createSandboxRailService,
  SANDBOX_RAIL_MIGRATIONS,
} from "@payouts/sandbox-rail/sandbox-rail-service";
import { createWebhookDispatcher, WEBHOOK_MIGRATIONS } from "@payouts/webhooks/webhook-dispatcher";

export const GATEWAY_MIGRATIONS: MigrationSet = {
  schema: "gateway",
  dir: join(dirname(fileURLToPath(import.meta.url)), "..", "migrations"),
};

/** Every schema, in the order a fresh database is migrated. */
export const ALL_MIGRATIONS: readonly MigrationSet[] = [
  GATEWAY_MIGRATIONS,
  LOOKUP_MIGRATIONS,
  PRICING_MIGRATIONS,
  LEDGER_MIGRATIONS,
  WEBHOOK_MIGRATIONS,
  SANDBOX_RAIL_MIGRATIONS,
];

export type ServiceRole = "lookup" | "pricing" | "ledger" | "webhook-dispatcher" | "sandbox-rail";

export interface RoleSpec {
  readonly create: (ctx: ServiceContext) => ServiceModule;
  /** Default gRPC port in the distributed mode. */
  readonly defaultPort: number;
  /** Key of ServiceTransports other services use to reach this one. */
  readonly transportKey: "lookup" | "pricing" | "ledger" | "webhooks" | "rail";
}

export const SERVICE_ROLES: Readonly<Record<ServiceRole, RoleSpec>> = {
  lookup: { create: createLookupService, defaultPort: 50051, transportKey: "lookup" },
  pricing: { create: createPricingService, defaultPort: 50052, transportKey: "pricing" },
  ledger: { create: createLedgerService, defaultPort: 50053, transportKey: "ledger" },
  "webhook-dispatcher": { create: createWebhookDispatcher, defaultPort: 50054, transportKey: "webhooks" },
  "sandbox-rail": { create: createSandboxRailService, defaultPort: 50055, transportKey: "rail" },
};
