import { checkCbu, isCvu } from "../check-digits/cbu.js";
import { fail, ok, type Result } from "../types.js";
import { compactAccountNumber } from "./account-number.js";
import type { CountryDestination, DestinationRequest } from "./destination-request.js";

/**
 * Argentina: CBU (bank account), CVU (payment-provider account) or alias. Transfers are addressed by
 * these three only; there is no national phone directory, so phone numbers are refused outright.
 */

const INVALID = "INVALID_DESTINATION";
const NO_PHONES = "phone numbers are not payment keys in Argentina; send a CBU/CVU (22 digits) or an alias";
/** National (10 digits) up to international without "+" (54 9 + 10 digits). */
const PHONE_LENGTHS = { min: 10, max: 13 };
const ALIAS_PATTERN = /^[a-z0-9.-]{6,20}$/;

export function validateArDestination(req: DestinationRequest): Result<CountryDestination> {
  if (req.destination.startsWith("+"))
    return fail(INVALID, `Not an Argentine payment key: ${NO_PHONES}`, req.field);
  const compact = compactAccountNumber(req.destination);
  // A 22-character key can never be an alias (max 20), and all-digit aliases are read as mistyped CBUs.
  if (/^\d+$/.test(compact) || compact.length === 22) return validateCbuOrCvu(compact, req.field);
  return validateAlias(req.destination, req.field);
}

function validateCbuOrCvu(value: string, field: string): Result<CountryDestination> {
  const outcome = checkCbu(value);
  if (!outcome.valid) {
    const phoneLike = value.length >= PHONE_LENGTHS.min && value.length <= PHONE_LENGTHS.max;
    return fail(INVALID, `Invalid CBU/CVU: ${outcome.reason}${phoneLike ? `; ${NO_PHONES}` : ""}`, field);
  }
  return ok({
    destination_type: isCvu(value) ? "CVU" : "CBU",
    payment_destination: value,
    payment_destination_code: "",
    institution_name: "",
  });
}

function validateAlias(raw: string, field: string): Result<CountryDestination> {
  // Aliases are case-insensitive; the canonical form is lower case.
  const alias = raw.toLowerCase();
  if (!ALIAS_PATTERN.test(alias)) return fail(INVALID, `Invalid alias: ${aliasProblem(alias)}`, field);
  return ok({
    destination_type: "ALIAS",
    payment_destination: alias,
    payment_destination_code: "",
    institution_name: "",
  });
}

function aliasProblem(alias: string): string {
  if (alias.length < 6) return "an alias has at least 6 characters";
  if (alias.length > 20) return "an alias has at most 20 characters";
  return "an alias has only letters a-z (no ñ or accents), digits, '.' and '-', without spaces";
}
