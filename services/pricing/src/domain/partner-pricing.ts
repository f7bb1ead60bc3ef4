/**
 * A partner's pricing: the currencies its previews quote and its fee schedule. A partner
 * never configured has no supported currencies (previews quote only USD) and pays no fees.
 */
import { type FeeSchedule, NO_FEES } from "./fees.js";
import { isPriceableCurrency } from "./fx-rates.js";
import { fail, ok, type Result } from "./pricing-error.js";

export interface PartnerPricing {
  readonly partnerId: string;
  /** Upper-case ISO 4217 codes, without duplicates, in the order the operator gave them. */
  readonly supportedCurrencies: readonly string[];
  readonly fees: FeeSchedule;
}

/** Largest list accepted: far above the number of currencies in the world that have minor units. */
export const MAX_SUPPORTED_CURRENCIES = 200;

export function defaultPartnerPricing(partnerId: string): PartnerPricing {
  return { partnerId, supportedCurrencies: [], fees: NO_FEES };
}

/** Upper-cases and deduplicates the list; every entry must be an ISO 4217 code with minor units. */
export function parseSupportedCurrencies(input: readonly string[]): Result<string[]> {
  if (input.length > MAX_SUPPORTED_CURRENCIES) {
    return fail(
      "INVALID_FIELD",
      `supported_currencies may hold at most ${MAX_SUPPORTED_CURRENCIES} codes`,
      "supported_currencies",
    );
  }
  const codes = input.map((code) => code.toUpperCase());
  const invalid = codes.find((code) => !isPriceableCurrency(code));
  if (invalid !== undefined) {
    return fail(
      "INVALID_FIELD",
      `supported_currencies: ${JSON.stringify(invalid)} is not an ISO 4217 currency code`,
      "supported_currencies",
    );
  }
  return ok([...new Set(codes)]);
}
