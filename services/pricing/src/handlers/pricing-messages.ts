import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { toDecimalString } from "@payouts/platform/money/decimal";
import type { QuoteSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import type {
  CorridorSchema,
  FxRateSchema,
  PartnerPricingSchema,
} from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import type { Corridor } from "../domain/corridor.js";
import type { PartnerPricing } from "../domain/partner-pricing.js";
import type { Quotation } from "../domain/preview.js";
import type { StoredFxRate } from "../store/fx-rate-store.js";

/** Every figure at full precision: rounding to `dp` or minor units is the gateway's, at rendering. */
export function quoteMessage(quote: Quotation, quoteId = ""): MessageInitShape<typeof QuoteSchema> {
  return {
    quoteId,
    amount: toDecimalString(quote.amount),
    currency: quote.currency,
    exchangeRate: toDecimalString(quote.exchangeRate),
    amountUsd: toDecimalString(quote.amountUsd),
    percentageFee: toDecimalString(quote.percentageFee),
    fixedFee: toDecimalString(quote.fixedFee),
    fee: toDecimalString(quote.fee),
    totalUsd: toDecimalString(quote.totalUsd),
    expiresAt: timestampFromDate(quote.expiresAt),
  };
}

export function fxRateMessage(rate: StoredFxRate): MessageInitShape<typeof FxRateSchema> {
  return {
    currency: rate.currency,
    ratePerUsd: toDecimalString(rate.ratePerUsd),
    updatedAt: timestampFromDate(rate.updatedAt),
  };
}

export function corridorMessage(corridor: Corridor): MessageInitShape<typeof CorridorSchema> {
  return {
    countryCode: corridor.countryCode,
    currency: corridor.currency,
    minAmount: toDecimalString(corridor.minAmount),
    maxAmount: toDecimalString(corridor.maxAmount),
    enabled: corridor.enabled,
  };
}

export function partnerPricingMessage(
  pricing: PartnerPricing,
): MessageInitShape<typeof PartnerPricingSchema> {
  return {
    partnerId: pricing.partnerId,
    supportedCurrencies: [...pricing.supportedCurrencies],
    fees: {
      percent: toDecimalString(pricing.fees.percent),
      fixedUsd: toDecimalString(pricing.fees.fixedUsd),
    },
  };
}
