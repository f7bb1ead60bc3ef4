import type { ServiceImpl } from "@connectrpc/connect";
import { requirePartnerId } from "@payouts/platform/rpc/rejection";
import type { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { quoteCorridorPayout } from "../domain/binding-quote.js";
import { limitsByCurrency } from "../domain/corridor.js";
import { previewQuotations, validatePreviewBody } from "../domain/preview.js";
import { valueOrReject } from "../reasons.js";
import { readQuoteInputs } from "../store/quote-inputs-store.js";
import type { PricingHandlerDeps } from "./pricing-handler-deps.js";
import { quoteMessage } from "./pricing-messages.js";

type QuoteHandlers = Pick<ServiceImpl<typeof PricingService>, "previewQuotations" | "createQuote">;

export function createQuoteHandlers(deps: PricingHandlerDeps): QuoteHandlers {
  return {
    /** Indicative prices from (briefly cached) reference data; `expires_at` is fresh on every call. */
    async previewQuotations(request) {
      const partnerId = requirePartnerId(request.partnerId);
      const body = valueOrReject(validatePreviewBody({ amount: request.amount, currency: request.currency }));
      const [pricing, rates, corridors] = await Promise.all([
        deps.cache.partnerPricing(partnerId),
        deps.cache.fxRates(),
        deps.cache.corridors(),
      ]);
      const quotations = valueOrReject(
        previewQuotations({
          ...body,
          rates,
          supportedCurrencies: pricing.supportedCurrencies,
          corridorsByCurrency: limitsByCurrency(corridors),
          fees: pricing.fees,
          now: deps.now(),
        }),
      );
      return { quotations: quotations.map((quotation) => quoteMessage(quotation)) };
    },

    /** A binding price: read from the database, never from the preview cache. */
    async createQuote(request) {
      const partnerId = requirePartnerId(request.partnerId);
      const countryCode = request.countryCode.toUpperCase();
      const { corridor, rates, pricing } = await readQuoteInputs(
        deps.db,
        countryCode,
        partnerId,
        request.currency.toUpperCase(),
      );
      const quote = valueOrReject(
        quoteCorridorPayout({
          amount: request.amount,
          currency: request.currency,
          countryCode,
          corridor,
          rates,
          fees: pricing.fees,
          now: deps.now(),
          ttlMs: deps.config.quoteTtlMs,
        }),
      );
      return { quote: quoteMessage(quote, deps.newQuoteId()) };
    },
  };
}
