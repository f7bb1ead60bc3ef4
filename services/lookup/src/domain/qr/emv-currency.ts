/** ISO 4217 currencies of the corridors, keyed the way EMV tag 53 writes them. */
export interface EmvCurrency {
  readonly alpha: string;
  readonly numeric: string;
  readonly minorUnits: number;
}

const CURRENCIES: readonly EmvCurrency[] = [
  { alpha: "ARS", numeric: "032", minorUnits: 2 },
  { alpha: "BRL", numeric: "986", minorUnits: 2 },
  { alpha: "PEN", numeric: "604", minorUnits: 2 },
  { alpha: "BOB", numeric: "068", minorUnits: 2 },
  { alpha: "COP", numeric: "170", minorUnits: 2 },
  { alpha: "NGN", numeric: "566", minorUnits: 2 },
  { alpha: "GHS", numeric: "936", minorUnits: 2 },
  { alpha: "ZMW", numeric: "967", minorUnits: 2 },
  { alpha: "KES", numeric: "404", minorUnits: 2 },
  { alpha: "TZS", numeric: "834", minorUnits: 2 },
  { alpha: "UGX", numeric: "800", minorUnits: 0 },
  { alpha: "VND", numeric: "704", minorUnits: 0 },
];

const BY_NUMERIC = new Map(CURRENCIES.map((currency) => [currency.numeric, currency]));

export function currencyByNumericCode(numeric: string): EmvCurrency | undefined {
  return BY_NUMERIC.get(numeric);
}
