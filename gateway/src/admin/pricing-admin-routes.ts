import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { Corridor, FxRate } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readBody } from "../http/read-body.js";
import {
  type Corridor as CorridorShape,
  deleteFxRate,
  type FxRate as FxRateShape,
  listCorridors,
  listFxRates,
  putCorridor,
  putFxRate,
} from "../operations/admin/pricing-admin-api.js";

/**
 * Operators' FX rates and corridors (`/admin/fx-rates`, `/admin/corridors`). Decimals are accepted as JSON
 * strings or numbers and answered as strings at full precision; value checks (ranges, ISO codes) are the
 * pricing service's.
 */
export function registerPricingAdminRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { pricing } = deps.clients;

  addRoute(app, putFxRate, async (request) => {
    const body = readBody(putFxRate.body, request.body);
    const res = await pricing.putFxRate({ currency: request.params.currency, ratePerUsd: body.rate_per_usd });
    return renderFxRate(res.rate);
  });

  addRoute(app, deleteFxRate, async (request, reply) => {
    const { deleted } = await pricing.deleteFxRate({ currency: request.params.currency });
    if (!deleted) {
      throw new ApiError(404, "FX_RATE_NOT_FOUND", `no FX rate is set for ${request.params.currency}`);
    }
    return reply.code(204).send();
  });

  addRoute(app, listFxRates, async () => {
    const { rates } = await pricing.listFxRates({});
    return { fx_rates: rates.map(renderFxRate) };
  });

  addRoute(app, putCorridor, async (request) => {
    const body = readBody(putCorridor.body, request.body);
    const res = await pricing.putCorridor({
      corridor: {
        countryCode: request.params.country_code,
        currency: body.currency,
        minAmount: body.min_amount,
        maxAmount: body.max_amount,
        // A corridor being set up is meant to be used unless the operator says otherwise.
        enabled: body.enabled ?? true,
      },
    });
    return renderCorridor(res.corridor);
  });

  addRoute(app, listCorridors, async () => {
    const { corridors } = await pricing.listCorridors({});
    return { corridors: corridors.map(renderCorridor) };
  });
}

function renderFxRate(rate: FxRate | undefined): FxRateShape {
  return {
    currency: rate?.currency ?? "",
    rate_per_usd: rate?.ratePerUsd ?? "",
    updated_at: timestampIso(rate?.updatedAt),
  };
}

function renderCorridor(corridor: Corridor | undefined): CorridorShape {
  return {
    country_code: corridor?.countryCode ?? "",
    currency: corridor?.currency ?? "",
    min_amount: corridor?.minAmount ?? "",
    max_amount: corridor?.maxAmount ?? "",
    enabled: corridor?.enabled ?? false,
  };
}
