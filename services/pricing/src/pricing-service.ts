import type { MigrationSet } from "@payouts/platform/database/migrate";
import { packageMigrations } from "@payouts/platform/database/package-migrations";
import { newId } from "@payouts/platform/ids";
import { rpcOnlyModule } from "@payouts/platform/rpc-only-module";
import type { ServiceContext, ServiceModule } from "@payouts/platform/service-module";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { loadPricingConfig } from "./config.js";
import { createPricingHandlers } from "./handlers/pricing-handlers.js";
import { createReferenceDataCache } from "./store/reference-data-cache.js";

export const PRICING_MIGRATIONS: MigrationSet = packageMigrations("pricing", import.meta.url);

/** FX rates, corridors, partner fee schedules and quotes; no background work and no events. */
export function createPricingService(ctx: ServiceContext): ServiceModule {
  const config = loadPricingConfig(ctx.env);
  const now = ctx.now ?? (() => new Date());
  // The cache runs on the wall clock even when a test freezes `now`: its TTL is about staleness, not quotes.
  const cache = createReferenceDataCache(ctx.db, { ttlMs: config.referenceCacheTtlMs });
  const handlers = createPricingHandlers({
    db: ctx.db,
    cache,
    config,
    now,
    newQuoteId: () => newId("quo", now().getTime()),
  });
  return rpcOnlyModule({
    name: "pricing",
    service: PricingService,
    migrations: PRICING_MIGRATIONS,
    handlers,
  });
}
