import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { Corridor, FxRate } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import type { FastifyInstance } from "fastify";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { BodyReader } from "../http/body-reader.js";

/**
 * Operators' FX rates and corridors (DESIGN.md §5). Decimals are accepted as JSON strings or numbers and
 * answered as strings at full precision; value checks (ranges, ISO codes) are the pricing service's.
 */
export function registerPricingAdminRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { pricing } = deps.clients;

  app.put<{ Params: { currency: string } }>("/admin/fx-rates/:currency", async (request) => {
    const body = new BodyReader(request.body);
    const ratePerUsd = body.decimalText("rate_per_usd", { required: true }) ?? "";
    const res = await pricing.putFxRate({ currency: request.params.currency, ratePerUsd });
    return renderFxRate(res.rate);
  });

  app.delete<{ Params: { currency: string } }>("/admin/fx-rates/:currency", async (request, reply) => {
    const { deleted } = await pricing.deleteFxRate({ currency: request.params.currency });
    if (!deleted) {
      throw new ApiError(404, "FX_RATE_NOT_FOUND", `no FX rate is set for ${request.params.currency}`);
    }
    return reply.code(204).send();
  });

  app.get("/admin/fx-rates", async () => {
    const { rates } = await pricing.listFxRates({});
    return { fx_rates: rates.map(renderFxRate) };
  });

  app.put<{ Params: { country_code: string } }>("/admin/corridors/:country_code", async (request) => {
    const body = new BodyReader(request.body);
    const res = await pricing.putCorridor({
      corridor: {
        countryCode: request.params.country_code,
        currency: body.string("currency", { required: true }),
        minAmount: body.decimalText("min_amount", { required: true }) ?? "",
        maxAmount: body.decimalText("max_amount", { required: true }) ?? "",
        // A corridor being set up is meant to be used unless the operator says otherwise.
        enabled: body.boolean("enabled") ?? true,
      },
    });
    return renderCorridor(res.corridor);
  });

  app.get("/admin/corridors", async () => {
    const { corridors } = await pricing.listCorridors({});
    return { corridors: corridors.map(renderCorridor) };
  });
}

function renderFxRate(rate: FxRate | undefined) {
  return {
    currency: rate?.currency ?? "",
    rate_per_usd: rate?.ratePerUsd ?? "",
    updated_at: timestampIso(rate?.updatedAt),
  };
}

function renderCorridor(corridor: Corridor | undefined) {
  return {
    country_code: corridor?.countryCode ?? "",
    currency: corridor?.currency ?? "",
    min_amount: corridor?.minAmount ?? "",
    max_amount: corridor?.maxAmount ?? "",
    enabled: corridor?.enabled ?? false,
  };
}
