import { loadConfig, parse } from "@payouts/platform/config/env-config";
import { DEFAULT_QUOTE_TTL_MS } from "./domain/binding-quote.js";

const spec = {
  quoteTtlMs: {
    env: "QUOTE_TTL_MS",
    doc: "lifetime of a binding quote in milliseconds",
    parse: parse.positiveInt,
    default: DEFAULT_QUOTE_TTL_MS,
  },
  referenceCacheTtlMs: {
    env: "PRICING_CACHE_TTL_MS",
    doc: "how long previews may reuse FX rates, corridors and partner pricing read from the database (0 = never)",
    parse: parse.nonNegativeInt,
    default: 2_000,
  },
} as const;

export type PricingConfig = ReturnType<typeof loadPricingConfig>;

export function loadPricingConfig(env: Readonly<Record<string, string | undefined>>) {
  return loadConfig(spec, { ...env });
}
