import type { ServiceContext } from "@payouts/platform/service-module";
import type { PricingConfig } from "../config.js";
import type { ReferenceDataCache } from "../store/reference-data-cache.js";

/**
 * What the pricing handlers need: the service context's database and clock (always given here), and
 * pricing's own. Built once by createPricingService.
 */
export interface PricingHandlerDeps extends Required<Pick<ServiceContext, "db" | "now">> {
  readonly cache: ReferenceDataCache;
  readonly config: PricingConfig;
  readonly newQuoteId: () => string;
}
