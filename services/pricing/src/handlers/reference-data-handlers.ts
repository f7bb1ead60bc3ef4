import type { ServiceImpl } from "@connectrpc/connect";
import type { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { parseCorridor } from "../domain/corridor.js";
import { parsePriceableCurrency, parseRatePerUsd, USD } from "../domain/fx-rates.js";
import { rejection, valueOrReject } from "../reasons.js";
import { listCorridors, upsertCorridor } from "../store/corridor-store.js";
import { deleteFxRate, listFxRates, upsertFxRate } from "../store/fx-rate-store.js";
import type { PricingHandlerDeps } from "./pricing-handler-deps.js";
import { corridorMessage, fxRateMessage } from "./pricing-messages.js";

type ReferenceDataHandlers = Pick<
  ServiceImpl<typeof PricingService>,
  "putFxRate" | "deleteFxRate" | "listFxRates" | "putCorridor" | "listCorridors"
>;

/** Operators' FX rates and corridors. Every write forgets this process's cached copy at once. */
export function createReferenceDataHandlers(deps: PricingHandlerDeps): ReferenceDataHandlers {
  return {
    async putFxRate(request) {
      const currency = rateCurrency(request.currency);
      const rate = valueOrReject(parseRatePerUsd(request.ratePerUsd));
      const stored = await upsertFxRate(deps.db, currency, rate);
      deps.cache.forgetFxRates();
      return { rate: fxRateMessage(stored) };
    },

    async deleteFxRate(request) {
      const deleted = await deleteFxRate(deps.db, rateCurrency(request.currency));
      deps.cache.forgetFxRates();
      return { deleted };
    },

    async listFxRates() {
      return { rates: (await listFxRates(deps.db)).map(fxRateMessage) };
    },

    async putCorridor(request) {
      const given = request.corridor;
      if (given === undefined) {
        throw rejection({
          code: "MISSING_REQUIRED_FIELD",
          message: "corridor is required",
          field: "corridor",
        });
      }
      const corridor = valueOrReject(
        parseCorridor({
          countryCode: given.countryCode.toUpperCase(),
          currency: given.currency.toUpperCase(),
          minAmount: given.minAmount,
          maxAmount: given.maxAmount,
          enabled: given.enabled,
        }),
      );
      const stored = await upsertCorridor(deps.db, corridor);
      deps.cache.forgetCorridors();
      return { corridor: corridorMessage(stored) };
    },

    async listCorridors() {
      return { corridors: (await listCorridors(deps.db)).map(corridorMessage) };
    },
  };
}

/** USD is the unit every rate is quoted in, so it has no rate of its own to set or delete. */
function rateCurrency(input: string): string {
  const currency = valueOrReject(parsePriceableCurrency(input, "currency"));
  if (currency === USD) {
    throw rejection({
      code: "INVALID_FIELD",
      message: "USD is the base currency: its rate is always 1",
      field: "currency",
    });
  }
  return currency;
}
