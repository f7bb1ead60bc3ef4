/**
 * What one binding quote reads, in one statement: the corridor of the country, the partner's pricing and
 * the FX rates of the two currencies the quote can need (the corridor's, and the one the amount is given
 * in) — not every rate. Read from the database on every quote, never from the preview cache: a binding
 * quote prices with the rates as they are when it is made.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec } from "@payouts/platform/money/decimal";
import type { Corridor } from "../domain/corridor.js";
import { defaultPartnerPricing, type PartnerPricing } from "../domain/partner-pricing.js";
import { type CorridorRow, toCorridor } from "./corridor-store.js";
import { type PartnerPricingRow, toPartnerPricing } from "./partner-pricing-store.js";

export interface QuoteInputs {
  readonly corridor: Corridor | undefined;
  readonly pricing: PartnerPricing;
  /** Units per USD of the corridor currency and of `amountCurrency`, those that have a rate. */
  readonly rates: ReadonlyMap<string, Dec>;
}

type Row = { [K in keyof CorridorRow]: CorridorRow[K] | null } & {
  [K in keyof PartnerPricingRow]: PartnerPricingRow[K] | null;
} & { rate_currency: string | null; rate_per_usd: string | null };

export async function readQuoteInputs(
  db: Queryable,
  countryCode: string,
  partnerId: string,
  amountCurrency: string,
): Promise<QuoteInputs> {
  const res = await db.query<Row>(
    `SELECT c.country_code, c.currency, c.min_amount, c.max_amount, c.enabled,
            p.partner_id, p.supported_currencies, p.fee_percent, p.fee_fixed_usd,
            r.currency AS rate_currency, r.rate_per_usd
       FROM (SELECT 1) AS one
       LEFT JOIN pricing.corridors c ON c.country_code = $1
       LEFT JOIN pricing.partner_pricing p ON p.partner_id = $2
       LEFT JOIN pricing.fx_rates r ON r.currency IN (c.currency, $3)`,
    [countryCode, partnerId, amountCurrency],
  );
  const first = res.rows[0];
  const corridor = first?.country_code == null ? undefined : toCorridor(first as CorridorRow);
  const pricing =
    first?.partner_id == null
      ? defaultPartnerPricing(partnerId)
      : toPartnerPricing(first as PartnerPricingRow);
  const rates = new Map<string, Dec>();
  for (const row of res.rows) {
    if (row.rate_currency !== null && row.rate_per_usd !== null) {
      rates.set(row.rate_currency, new Dec(row.rate_per_usd));
    }
  }
  return { corridor, pricing, rates };
}
