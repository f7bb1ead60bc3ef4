/**
 * Every amount, fee and rate pricing stores is NUMERIC(38,18): 18 decimals (INTERNAL_SCALE) and at most 20
 * integer digits. A value beyond that would be rounded or refused by the database, so input is checked
 * against it first and refused with the field at fault.
 */
import { type Dec, INTERNAL_SCALE } from "@payouts/platform/money/decimal";

const INTEGER_DIGITS = 38 - INTERNAL_SCALE;

export function fitsStoredScale(value: Dec): boolean {
  return value.isFinite() && value.dp() <= INTERNAL_SCALE && value.abs().lt(`1e${INTEGER_DIGITS}`);
}
