import { isProductionMode } from "@payouts/platform/config/env-config";
import type { MigrationSet } from "@payouts/platform/database/migrate";
import { packageMigrations } from "@payouts/platform/database/package-migrations";
import type { ServiceContext, ServiceModule } from "@payouts/platform/service-module";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import { createCallbackDispatcher } from "./callback/callback-dispatcher.js";
import { loadSandboxRailConfig } from "./config.js";
import { createRailHandlers } from "./handlers/rail-handlers.js";
import { createSettlementHandlers } from "./handlers/settlement-handlers.js";

export const SANDBOX_RAIL_MIGRATIONS: MigrationSet = packageMigrations("rail", import.meta.url);

/**
 * The sandbox payout rail: accepts payouts, keeps them in its own schema, and reports each outcome to the
 * gateway's signed callback route after SANDBOX_AUTO_SETTLE_MS (or when an operator forces one).
 */
export function createSandboxRailService(ctx: ServiceContext): ServiceModule {
  const config = loadSandboxRailConfig(ctx.env);
  const now = ctx.now ?? (() => new Date());
  const dispatcher = createCallbackDispatcher({
    db: ctx.db,
    logger: ctx.logger,
    target: { url: config.callbackUrl, secret: config.callbackSecret, timeoutMs: config.callbackTimeoutMs },
    pollMs: config.callbackPollMs,
    now,
  });
  const handlers = {
    ...createRailHandlers({ db: ctx.db, config, dispatcher, now }),
    ...createSettlementHandlers({ db: ctx.db, now, sandboxControls: !isProductionMode(ctx.env) }),
  };
  return {
    name: "sandbox-rail",
    serviceNames: [RailService.typeName],
    migrations: SANDBOX_RAIL_MIGRATIONS,
    routes: (router) => router.service(RailService, handlers),
    // Its schema is migrated with every other one by the migration role (`migrate`), never by the service.
    async start() {
      dispatcher.start();
    },
    stop: () => dispatcher.stop(),
  };
}
