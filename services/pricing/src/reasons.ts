/**
 * Public entry point: every reason the pricing service answers with (its typed failure union), and the
 * rejections its handlers throw, made from the one reason table (domain/pricing-error.ts).
 */
import { rejectionsFor } from "@payouts/platform/reasons/reason-rejections";
import { PRICING } from "./domain/pricing-error.js";

export { PRICING_REASONS, type PricingReason } from "./domain/pricing-error.js";

export const { rejection, valueOrReject } = rejectionsFor(PRICING);
