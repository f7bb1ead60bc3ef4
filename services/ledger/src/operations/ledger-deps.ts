import type { ServiceContext } from "@payouts/platform/service-module";
import type { LedgerConfig } from "../config.js";

/**
 * What every ledger operation needs: the service context's database, logger and clock (always given here),
 * and the ledger's own. Built once by the service factory.
 */
export interface LedgerDeps extends Required<Pick<ServiceContext, "db" | "logger" | "now">> {
  readonly config: LedgerConfig;
  /** Called after each commit that wrote outbox rows, so the relay publishes without waiting a poll. */
  readonly committed: () => void;
}
