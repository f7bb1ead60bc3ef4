import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MigrationSet } from "@payouts/platform/database/migrate";
import { newId } from "@payouts/platform/ids";
import { rpcOnlyModule } from "@payouts/platform/rpc-only-module";
import type { ServiceContext, ServiceModule } from "@payouts/platform/service-module";
import { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { type LookupConfig, loadLookupConfig } from "./config.js";
import { createSandboxNameEnquiry, type NameEnquiry } from "./domain/name-enquiry.js";
import { createLookupHandlers } from "./handlers/lookup-handlers.js";

export const LOOKUP_MIGRATIONS: MigrationSet = {
  schema: "lookup",
  dir: join(dirname(fileURLToPath(import.meta.url)), "..", "migrations"),
};

/** Adapters a caller may supply instead of the configured ones (a real provider, a test double). */
export interface LookupAdapters {
  readonly nameEnquiry?: NameEnquiry;
}

/** Destinations, QR codes, institutions and customers; no background work and no events. */
export function createLookupService(ctx: ServiceContext, adapters: LookupAdapters = {}): ServiceModule {
  const config = loadLookupConfig(ctx.env);
  const now = ctx.now ?? (() => new Date());
  const handlers = createLookupHandlers({
    db: ctx.db,
    nameEnquiry: adapters.nameEnquiry ?? configuredNameEnquiry(config),
    now,
    newCustomerId: () => newId("cus", now().getTime()),
  });
  return rpcOnlyModule({ name: "lookup", service: LookupService, migrations: LOOKUP_MIGRATIONS, handlers });
}

function configuredNameEnquiry(config: LookupConfig): NameEnquiry {
  switch (config.nameEnquiry) {
    case "sandbox":
      return createSandboxNameEnquiry();
  }
}
