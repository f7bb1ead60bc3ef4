import type { Queryable } from "@payouts/platform/database/database";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import { defaultPartnerPricing, type PartnerPricing } from "../domain/partner-pricing.js";

export interface PartnerPricingRow {
  partner_id: string;
  supported_currencies: string[];
  fee_percent: string;
  fee_fixed_usd: string;
}

const COLUMNS = "partner_id, supported_currencies, fee_percent, fee_fixed_usd";

export const toPartnerPricing = (row: PartnerPricingRow): PartnerPricing => ({
  partnerId: row.partner_id,
  supportedCurrencies: row.supported_currencies,
  fees: { percent: new Dec(row.fee_percent), fixedUsd: new Dec(row.fee_fixed_usd) },
});

/** A partner's pricing; the default (no currencies, no fees) when none was ever set. */
export async function findPartnerPricing(db: Queryable, partnerId: string): Promise<PartnerPricing> {
  const res = await db.query<PartnerPricingRow>(
    `SELECT ${COLUMNS} FROM pricing.partner_pricing WHERE partner_id = $1`,
    [partnerId],
  );
  const row = res.rows[0];
  return row === undefined ? defaultPartnerPricing(partnerId) : toPartnerPricing(row);
}

/** The fields of a partial update; an undefined field keeps its stored (or default) value. */
export interface PartnerPricingChange {
  readonly supportedCurrencies?: readonly string[] | undefined;
  readonly feePercent?: Dec | undefined;
  readonly feeFixedUsd?: Dec | undefined;
}

/**
 * Applies a partial update in one statement, so two concurrent updates of different fields (a PATCH of the
 * percentage next to a PATCH of the currencies) both land instead of one overwriting the other.
 */
export async function mergePartnerPricing(
  db: Queryable,
  partnerId: string,
  change: PartnerPricingChange,
): Promise<PartnerPricing> {
  const res = await db.query<PartnerPricingRow>(
    `INSERT INTO pricing.partner_pricing AS p (partner_id, supported_currencies, fee_percent, fee_fixed_usd)
     VALUES ($1, COALESCE($2::text[], '{}'), COALESCE($3::numeric, 0), COALESCE($4::numeric, 0))
     ON CONFLICT (partner_id) DO UPDATE SET
       supported_currencies = COALESCE($2::text[], p.supported_currencies),
       fee_percent = COALESCE($3::numeric, p.fee_percent),
       fee_fixed_usd = COALESCE($4::numeric, p.fee_fixed_usd),
       updated_at = now()
     RETURNING ${COLUMNS}`,
    [
      partnerId,
      change.supportedCurrencies === undefined ? null : [...change.supportedCurrencies],
      change.feePercent === undefined ? null : toDecimalString(change.feePercent),
      change.feeFixedUsd === undefined ? null : toDecimalString(change.feeFixedUsd),
    ],
  );
  return toPartnerPricing(res.rows[0]!);
}
