/** Public entry point: every reason the pricing service answers with (its typed failure union). */
export { PRICING_REASONS, type PricingReason } from "./domain/pricing-error.js";
