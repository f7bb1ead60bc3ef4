import { DEFAULT_DP } from "@payouts/platform/money/json-decimal";
import { DecimalPlaces, Type } from "../api/schema.js";
import { readQuery } from "./read-query.js";

/** The `dp` query parameter, as a shape (its rules: `DecimalPlaces`). */
export const DpQuery = Type.Object({ dp: Type.Optional(DecimalPlaces) });

/**
 * The `dp` query parameter: integer 0–10, default 2; anything else is 400 INVALID_FIELD, a repeated `dp`
 * included (which of two values the partner meant is not ours to guess).
 */
export function readDp(query: unknown): number {
  return readQuery(DpQuery, query).dp ?? DEFAULT_DP;
}
