/**
 * Public entry point: the sandbox defaults that `npm start` seeds (through pricing's admin RPCs): an FX rate
 * and a corridor for every corridor country, and the sandbox partner's currencies and fees. This is
 * product data the running sandbox needs, not test data, so it lives here rather than in testdata/.
 *
 * These are SANDBOX values, not market data: rates are round figures of the right order of magnitude
 * (late 2025) so that examples look plausible, and limits are roughly 1 USD to 10 000 USD per payout,
 * tighter where the local rail caps a single payment (M-Pesa KES 250 000, NAPAS 247 VND 500 000 000).
 * Operators replace them through `PUT /admin/fx-rates/{currency}` and `PUT /admin/corridors/{country_code}`.
 * Values are decimal strings, the wire and storage form of money.
 */

export interface SandboxCorridor {
  readonly countryCode: string;
  readonly currency: string;
  /** Units of `currency` per 1 USD. */
  readonly ratePerUsd: string;
  readonly minAmount: string;
  readonly maxAmount: string;
}

export const SANDBOX_CORRIDORS: readonly SandboxCorridor[] = [
  { countryCode: "AR", currency: "ARS", ratePerUsd: "1450", minAmount: "1000", maxAmount: "14000000" },
  { countryCode: "BR", currency: "BRL", ratePerUsd: "5.4", minAmount: "1", maxAmount: "50000" },
  { countryCode: "PE", currency: "PEN", ratePerUsd: "3.4", minAmount: "1", maxAmount: "30000" },
  { countryCode: "BO", currency: "BOB", ratePerUsd: "6.96", minAmount: "10", maxAmount: "65000" },
  { countryCode: "CO", currency: "COP", ratePerUsd: "3900", minAmount: "5000", maxAmount: "38000000" },
  { countryCode: "NG", currency: "NGN", ratePerUsd: "1460", minAmount: "1000", maxAmount: "14000000" },
  { countryCode: "GH", currency: "GHS", ratePerUsd: "11", minAmount: "10", maxAmount: "100000" },
  { countryCode: "ZM", currency: "ZMW", ratePerUsd: "23", minAmount: "20", maxAmount: "200000" },
  { countryCode: "KE", currency: "KES", ratePerUsd: "129.25", minAmount: "10", maxAmount: "250000" },
  { countryCode: "TZ", currency: "TZS", ratePerUsd: "2450", minAmount: "1000", maxAmount: "5000000" },
  { countryCode: "UG", currency: "UGX", ratePerUsd: "3600", minAmount: "500", maxAmount: "5000000" },
  { countryCode: "VN", currency: "VND", ratePerUsd: "26300", minAmount: "10000", maxAmount: "500000000" },
];

/** One rate per corridor currency; USD needs none (it is always 1). */
export const SANDBOX_FX_RATES: readonly { readonly currency: string; readonly ratePerUsd: string }[] =
  SANDBOX_CORRIDORS.map(({ currency, ratePerUsd }) => ({ currency, ratePerUsd }));

/** The sandbox partner's supported_currencies: USD first, then every corridor currency. */
export const SANDBOX_SUPPORTED_CURRENCIES: readonly string[] = [
  "USD",
  ...SANDBOX_CORRIDORS.map(({ currency }) => currency),
];

/** The sandbox partner's fees: 1.5 % plus 0.30 USD. */
export const SANDBOX_FEES = { percent: "1.5", fixed_usd: "0.30" } as const;
