import { currencyByNumeric } from "@payouts/platform/money/currencies";
import { CORRIDORS } from "../corridors.js";

/** ISO 4217 currencies of the corridors, keyed the way EMV tag 53 writes them. */
export interface EmvCurrency {
  readonly alpha: string;
  readonly numeric: string;
  readonly minorUnits: number;
}

/** The corridor currency an EMV tag 53 code (ISO 4217 numeric) names; undefined for any other currency. */
export function currencyByNumericCode(numeric: string): EmvCurrency | undefined {
  const iso = currencyByNumeric(numeric);
  const corridor = CORRIDORS.find((row) => row.currency === iso?.code);
  if (iso === undefined || corridor === undefined) return undefined;
  return { alpha: iso.code, numeric: iso.numeric, minorUnits: corridor.minor_units };
}
