import type { Queryable } from "@payouts/platform/database/database";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";

export interface StoredFxRate {
  readonly currency: string;
  /** Units of `currency` per 1 USD. */
  readonly ratePerUsd: Dec;
  readonly updatedAt: Date;
}

interface FxRateRow {
  currency: string;
  rate_per_usd: string;
  updated_at: Date;
}

const toFxRate = (row: FxRateRow): StoredFxRate => ({
  currency: row.currency,
  ratePerUsd: new Dec(row.rate_per_usd),
  updatedAt: row.updated_at,
});

/** Sets (or replaces) the rate of one currency; `updated_at` is the database's clock. */
export async function upsertFxRate(db: Queryable, currency: string, ratePerUsd: Dec): Promise<StoredFxRate> {
  const res = await db.query<FxRateRow>(
    `INSERT INTO pricing.fx_rates (currency, rate_per_usd) VALUES ($1, $2)
     ON CONFLICT (currency) DO UPDATE SET rate_per_usd = EXCLUDED.rate_per_usd, updated_at = now()
     RETURNING currency, rate_per_usd, updated_at`,
    [currency, toDecimalString(ratePerUsd)],
  );
  return toFxRate(res.rows[0]!);
}

/** False when the currency had no rate. */
export async function deleteFxRate(db: Queryable, currency: string): Promise<boolean> {
  const res = await db.query("DELETE FROM pricing.fx_rates WHERE currency = $1", [currency]);
  return res.rowCount > 0;
}

export async function listFxRates(db: Queryable): Promise<StoredFxRate[]> {
  const res = await db.query<FxRateRow>(
    "SELECT currency, rate_per_usd, updated_at FROM pricing.fx_rates ORDER BY currency",
  );
  return res.rows.map(toFxRate);
}
