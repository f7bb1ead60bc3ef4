import type { ServiceImpl } from "@connectrpc/connect";
import type { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { createPartnerPricingHandlers } from "./partner-pricing-handlers.js";
import type { PricingHandlerDeps } from "./pricing-handler-deps.js";
import { createQuoteHandlers } from "./quote-handlers.js";
import { createReferenceDataHandlers } from "./reference-data-handlers.js";

/** Every RPC of payouts.pricing.v1.PricingService. */
export function createPricingHandlers(deps: PricingHandlerDeps): ServiceImpl<typeof PricingService> {
  return {
    ...createQuoteHandlers(deps),
    ...createReferenceDataHandlers(deps),
    ...createPartnerPricingHandlers(deps),
  };
}
