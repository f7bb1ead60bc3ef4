import type { ServiceImpl } from "@connectrpc/connect";
import type { Dec } from "@payouts/platform/money/decimal";
import { requirePartnerId } from "@payouts/platform/rpc/rejection";
import type { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { parseFeePercent, parseFixedFeeUsd } from "../domain/fees.js";
import { parseSupportedCurrencies } from "../domain/partner-pricing.js";
import type { Result } from "../domain/pricing-error.js";
import { valueOrReject } from "../reasons.js";
import { findPartnerPricing, mergePartnerPricing } from "../store/partner-pricing-store.js";
import type { PricingHandlerDeps } from "./pricing-handler-deps.js";
import { partnerPricingMessage } from "./pricing-messages.js";

type PartnerPricingHandlers = Pick<
  ServiceImpl<typeof PricingService>,
  "putPartnerPricing" | "getPartnerPricing"
>;

/**
 * Partial updates: supported_currencies change only when `set_supported_currencies` is true (so an empty
 * list can clear them), and each half of `fees` only when given as a non-empty string.
 */
export function createPartnerPricingHandlers(deps: PricingHandlerDeps): PartnerPricingHandlers {
  return {
    async putPartnerPricing(request) {
      const partnerId = requirePartnerId(request.partnerId);
      const supportedCurrencies = request.setSupportedCurrencies
        ? valueOrReject(parseSupportedCurrencies(request.supportedCurrencies))
        : undefined;
      const feePercent = optional(request.fees?.percent, parseFeePercent);
      const feeFixedUsd = optional(request.fees?.fixedUsd, parseFixedFeeUsd);
      const pricing = await mergePartnerPricing(deps.db, partnerId, {
        supportedCurrencies,
        feePercent,
        feeFixedUsd,
      });
      deps.cache.forgetPartner(partnerId);
      return { pricing: partnerPricingMessage(pricing) };
    },

    async getPartnerPricing(request) {
      const pricing = await findPartnerPricing(deps.db, requirePartnerId(request.partnerId));
      return { pricing: partnerPricingMessage(pricing) };
    },
  };
}

function optional(input: string | undefined, parse: (input: string) => Result<Dec>): Dec | undefined {
  return input === undefined || input === "" ? undefined : valueOrReject(parse(input));
}
