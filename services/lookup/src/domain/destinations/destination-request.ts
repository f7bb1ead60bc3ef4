import { fail, type ValidatedDestination } from "../types.js";

/** Recipient fields a partner may send (required for BO bank transfers). */
export interface RecipientInput {
  readonly name_first?: string | undefined;
  readonly name_last?: string | undefined;
  readonly ic_number?: string | undefined;
}

/**
 * What a country validator sees: the request fields already trimmed, with blanks turned into undefined,
 * the country and payment method already checked against the corridor.
 */
export interface DestinationRequest {
  /** Canonical upper-case ISO alpha-2 code. */
  readonly country_code: string;
  /** The typed destination: payment_destination, or merchant_id on the merchant contract. */
  readonly destination: string;
  /** The request field that carried `destination`, named in errors. */
  readonly field: "payment_destination" | "merchant_id";
  /** payment_destination_code, upper-cased. */
  readonly code?: string | undefined;
  readonly account_type?: string | undefined;
  readonly recipient?: RecipientInput | undefined;
  readonly account_reference?: string | undefined;
}

/**
 * What a country validator returns: the destination-specific part of a ValidatedDestination. The
 * caller adds the corridor (country, currency, payment method) and the common recipient keys.
 */
export type CountryDestination = Pick<
  ValidatedDestination,
  "destination_type" | "payment_destination" | "payment_destination_code" | "institution_name"
> &
  Partial<Omit<ValidatedDestination, "country_code" | "currency" | "payment_method">>;

/** INVALID_DESTINATION_CODE: the code in `field` names no institution of the country. */
export function unknownCode(message: string, field = "payment_destination_code") {
  return fail("INVALID_DESTINATION_CODE", message, field);
}
