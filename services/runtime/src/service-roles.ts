import { GATEWAY_MIGRATIONS } from "@payouts/gateway/edge";
import type { MigrationSet } from "@payouts/platform/database/migrate";
import type { ServiceContext, ServiceModule } from "@payouts/platform/service-module";

export type ServiceRole = "lookup" | "pricing" | "ledger" | "webhooks" | "sandbox-rail";

/** What a service package gives its role. */
export interface RoleModule {
  readonly create: (ctx: ServiceContext) => ServiceModule;
  readonly migrations: MigrationSet;
}

export interface RoleSpec {
  /**
   * Imports the service's package. Only a process that runs the role loads it: a distributed process
   * holds its own service's code and no other (each service is about 2–8 MB of heap and code).
   */
  readonly load: () => Promise<RoleModule>;
  /** Default gRPC port in the distributed mode. */
  readonly defaultPort: number;
  /** Key of ServiceTransports other services use to reach this one. */
  readonly transportKey: "lookup" | "pricing" | "ledger" | "webhooks" | "rail";
}

export const SERVICE_ROLES: Readonly<Record<ServiceRole, RoleSpec>> = {
  lookup: {
    load: async () => {
      const { createLookupService, LOOKUP_MIGRATIONS } = await import("@payouts/lookup/lookup-service");
      return { create: createLookupService, migrations: LOOKUP_MIGRATIONS };
    },
    defaultPort: 50051,
    transportKey: "lookup",
  },
  pricing: {
    load: async () => {
      const { createPricingService, PRICING_MIGRATIONS } = await import("@payouts/pricing/pricing-service");
      return { create: createPricingService, migrations: PRICING_MIGRATIONS };
    },
    defaultPort: 50052,
    transportKey: "pricing",
  },
  ledger: {
    load: async () => {
      const { createLedgerService, LEDGER_MIGRATIONS } = await import("@payouts/ledger/ledger-service");
      return { create: createLedgerService, migrations: LEDGER_MIGRATIONS };
    },
    defaultPort: 50053,
    transportKey: "ledger",
  },
  webhooks: {
    load: async () => {
      const { createWebhooksService, WEBHOOKS_MIGRATIONS } = await import(
        "@payouts/webhooks/webhooks-service"
      );
      return { create: createWebhooksService, migrations: WEBHOOKS_MIGRATIONS };
    },
    defaultPort: 50054,
    transportKey: "webhooks",
  },
  "sandbox-rail": {
    load: async () => {
      const { createSandboxRailService, SANDBOX_RAIL_MIGRATIONS } = await import(
        "@payouts/sandbox-rail/sandbox-rail-service"
      );
      return { create: createSandboxRailService, migrations: SANDBOX_RAIL_MIGRATIONS };
    },
    defaultPort: 50055,
    transportKey: "rail",
  },
};

/** Every schema, in the order a fresh database is migrated: the gateway's, then each service's. */
export async function allMigrations(): Promise<MigrationSet[]> {
  const services = await Promise.all(Object.values(SERVICE_ROLES).map((spec) => spec.load()));
  return [GATEWAY_MIGRATIONS, ...services.map((service) => service.migrations)];
}
