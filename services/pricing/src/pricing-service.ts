import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MigrationSet } from "@payouts/platform/database/migrate";
import { newId } from "@payouts/platform/ids";
import type { ServiceContext, ServiceModule } from "@payouts/platform/service-module";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { loadPricingConfig } from "./config.js";
import { createPricingHandlers } from "./handlers/pricing-handlers.js";
import { createReferenceDataCache } from "./store/reference-data-cache.js";

export const PRICING_MIGRATIONS: MigrationSet = {
  schema: "pricing",
  dir: join(dirname(fileURLToPath(import.meta.url)), "..", "migrations"),
};

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
  return {
    name: "pricing",
    serviceNames: [PricingService.typeName],
    migrations: PRICING_MIGRATIONS,
    routes: (router) => router.service(PricingService, handlers),
    start: async () => {},
    stop: async () => {},
  };
}
