import type { Database } from "@payouts/platform/database/database";
import type { PricingConfig } from "../config.js";
import type { ReferenceDataCache } from "../store/reference-data-cache.js";

/** What the pricing handlers need; built once by createPricingService. */
export interface PricingHandlerDeps {
  readonly db: Database;
  readonly cache: ReferenceDataCache;
  readonly config: PricingConfig;
  readonly now: () => Date;
  readonly newQuoteId: () => string;
}
