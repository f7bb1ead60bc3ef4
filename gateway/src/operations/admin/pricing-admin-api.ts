/** Shapes and operations of FX rates and corridors (`pricing-admin-routes.ts`). */
import { defineOperations, ok } from "../../api/operation.js";
import {
  ClosedObject,
  component,
  DecimalInput,
  DecimalString,
  Nullable,
  type Static,
  Type,
} from "../../api/schema.js";

export const CurrencyParams = Type.Object({
  currency: Type.String({ description: "ISO 4217 code with minor units.", examples: ["BRL"] }),
});
export const CountryParams = Type.Object({
  country_code: Type.String({ description: "ISO 3166-1 alpha-2 country.", examples: ["BR"] }),
});

export const FxRateRequest = component(
  "FxRateRequest",
  Type.Object({
    rate_per_usd: DecimalInput("Units of the currency per 1 USD; greater than 0.", { examples: ["5.4"] }),
  }),
);

export const FxRate = ClosedObject("FxRate", {
  currency: Type.String(),
  rate_per_usd: DecimalString("At full precision.", ["5.4"]),
  updated_at: Nullable.Timestamp("Last change."),
});
export type FxRate = Static<typeof FxRate>;

export const FxRateList = ClosedObject("FxRateList", { fx_rates: Type.Array(FxRate) });

export const CorridorRequest = component(
  "CorridorRequest",
  Type.Object({
    currency: Type.String({ description: "ISO 4217 code of the corridor, upper case.", examples: ["BRL"] }),
    min_amount: DecimalInput("Smallest payout, local currency; at least 0.", { examples: ["1"] }),
    max_amount: DecimalInput("Largest payout, local currency; not below `min_amount`.", {
      examples: ["50000"],
    }),
    enabled: Type.Optional(
      Type.Boolean({ description: "Payouts allowed; `true` when left out.", default: true }),
    ),
  }),
);

export const Corridor = ClosedObject("Corridor", {
  country_code: Type.String(),
  currency: Type.String(),
  min_amount: DecimalString("Local currency, full precision."),
  max_amount: DecimalString("Local currency, full precision."),
  enabled: Type.Boolean(),
});
export type Corridor = Static<typeof Corridor>;

export const CorridorList = ClosedObject("CorridorList", { corridors: Type.Array(Corridor) });

const TAGS = ["Reference data"];
const PRICING_REFUSAL = [
  "INVALID_FIELD",
  "the pricing service refused a value: not an ISO code, a rate not above 0, a range upside down (`field` names it)",
] as const;

const operations = defineOperations(
  { tags: TAGS },
  {
    putFxRate: {
      route: "PUT /admin/fx-rates/{currency}",
      role: "admin",
      summary: "Set a currency's FX rate",
      description: "Takes effect for new quotes at once (each pricing replica's cache: within its TTL).",
      pathParams: CurrencyParams,
      body: FxRateRequest,
      responses: ok("The rate as stored.", FxRate),
      errors: [PRICING_REFUSAL],
    },
    deleteFxRate: {
      route: "DELETE /admin/fx-rates/{currency}",
      role: "admin",
      summary: "Remove a currency's FX rate",
      pathParams: CurrencyParams,
      responses: { 204: { description: "Removed." } },
      errors: [
        ["FX_RATE_NOT_FOUND", "no FX rate is set for the currency", 404],
        ["INVALID_FIELD", "the currency is not an ISO 4217 code with minor units"],
      ],
    },
    listFxRates: {
      route: "GET /admin/fx-rates",
      role: "viewer",
      summary: "Every FX rate",
      responses: ok("The rates.", FxRateList),
      errors: [],
    },
    putCorridor: {
      route: "PUT /admin/corridors/{country_code}",
      role: "admin",
      summary: "Set a corridor's currency, limits and switch",
      pathParams: CountryParams,
      body: CorridorRequest,
      responses: ok("The corridor as stored.", Corridor),
      errors: [
        PRICING_REFUSAL,
        ["INVALID_AMOUNT", "a limit has more decimals than the currency's minor units"],
      ],
    },
    listCorridors: {
      route: "GET /admin/corridors",
      role: "viewer",
      summary: "Every corridor",
      responses: ok("The corridors.", CorridorList),
      errors: [],
    },
  },
);
export const { putFxRate, deleteFxRate, listFxRates, putCorridor, listCorridors } = operations;
export const PRICING_ADMIN_OPERATIONS = Object.values(operations);
