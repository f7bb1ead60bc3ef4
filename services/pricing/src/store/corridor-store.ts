import type { Queryable } from "@payouts/platform/database/database";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import type { Corridor } from "../domain/corridor.js";

export interface CorridorRow {
  country_code: string;
  currency: string;
  min_amount: string;
  max_amount: string;
  enabled: boolean;
}

const COLUMNS = "country_code, currency, min_amount, max_amount, enabled";

export const toCorridor = (row: CorridorRow): Corridor => ({
  countryCode: row.country_code,
  currency: row.currency,
  minAmount: new Dec(row.min_amount),
  maxAmount: new Dec(row.max_amount),
  enabled: row.enabled,
});

/** Sets (or replaces) the corridor of one country. */
export async function upsertCorridor(db: Queryable, corridor: Corridor): Promise<Corridor> {
  const res = await db.query<CorridorRow>(
    `INSERT INTO pricing.corridors (${COLUMNS}) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (country_code) DO UPDATE SET currency = EXCLUDED.currency, min_amount = EXCLUDED.min_amount,
       max_amount = EXCLUDED.max_amount, enabled = EXCLUDED.enabled, updated_at = now()
     RETURNING ${COLUMNS}`,
    [
      corridor.countryCode,
      corridor.currency,
      toDecimalString(corridor.minAmount),
      toDecimalString(corridor.maxAmount),
      corridor.enabled,
    ],
  );
  return toCorridor(res.rows[0]!);
}

export async function listCorridors(db: Queryable): Promise<Corridor[]> {
  const res = await db.query<CorridorRow>(`SELECT ${COLUMNS} FROM pricing.corridors ORDER BY country_code`);
  return res.rows.map(toCorridor);
}
