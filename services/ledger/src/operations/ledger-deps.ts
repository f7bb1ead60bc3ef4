import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import type { LedgerConfig } from "../config.js";

/** What every ledger operation needs; built once by the service factory. */
export interface LedgerDeps {
  readonly db: Database;
  readonly config: LedgerConfig;
  readonly logger: Logger;
  readonly now: () => Date;
  /** Called after each commit that wrote outbox rows, so the relay publishes without waiting a poll. */
  readonly committed: () => void;
}
