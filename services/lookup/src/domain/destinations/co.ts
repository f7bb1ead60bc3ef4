import { checkNit } from "../check-digits/nit-co.js";
import { fail, ok, type Result } from "../types.js";
import type { CountryDestination, DestinationRequest } from "./destination-request.js";
import { isEmailAddress } from "./email-address.js";
import { parsePhoneInput } from "./phone-input.js";

/**
 * Colombia: Bre-B keys (llaves). An alias starts with "@"; an e-mail has "@" inside; digits are read by
 * length and first digit: mobiles are 10 digits starting with 3, cédulas 6–8 digits or 10 digits
 * starting with 1 (numbering since 2003), NITs 9 digits starting with 8 or 9, optionally followed by
 * their check digit. Foreign IDs and merchant codes are not accepted: their formats are unverified and
 * would be indistinguishable from an alias typed without "@".
 */

const INVALID = "INVALID_DESTINATION";
const ALIAS_PATTERN = /^@[A-Za-z0-9]{1,19}$/;
const MAX_EMAIL_LENGTH = 254;

export function validateCoDestination(req: DestinationRequest): Result<CountryDestination> {
  const key = readKey(req.destination);
  if (typeof key === "string") return fail(INVALID, `Invalid Bre-B key: ${key}`, req.field);
  return ok({ ...key, payment_destination_code: "BREB", institution_name: "Bre-B" });
}

/** A recognised key, or the reason (a string) why the input is none. */
type KeyOrProblem = Pick<CountryDestination, "destination_type" | "payment_destination"> | string;

function readKey(raw: string): KeyOrProblem {
  if (raw.startsWith("@")) return aliasKey(raw);
  if (raw.includes("@")) return emailKey(raw);
  if (raw.startsWith("+")) return phoneKey(raw);
  return numericKey(raw);
}

const breb = (type: string, value: string): KeyOrProblem => ({
  destination_type: type,
  payment_destination: value,
});

function aliasKey(raw: string): KeyOrProblem {
  if (ALIAS_PATTERN.test(raw)) return breb("BREB_ALIAS", raw);
  return raw.length > 20
    ? "an alias has at most 19 characters after @"
    : "an alias has only letters and digits after @";
}

function emailKey(raw: string): KeyOrProblem {
  const email = raw.toLowerCase();
  return isEmailAddress(email, MAX_EMAIL_LENGTH) ? breb("BREB_EMAIL", email) : "not an e-mail address";
}

function phoneKey(raw: string): KeyOrProblem {
  const phone = parsePhoneInput(raw);
  if (phone === undefined || !phone.digits.startsWith("57")) return "mobile keys are Colombian numbers (+57)";
  return mobileKey(phone.digits.slice(2));
}

function mobileKey(national: string): KeyOrProblem {
  if (!/^3\d{9}$/.test(national)) return "a mobile number has 10 digits starting with 3";
  return breb("BREB_MOBILE", `+57${national}`);
}

function numericKey(raw: string): KeyOrProblem {
  const digits = raw.replace(/[\s.-]/g, "");
  if (!/^\d+$/.test(digits)) {
    return /^[A-Za-z0-9]{1,19}$/.test(raw)
      ? "an alias starts with @ (e.g. @tienda123)"
      : "expected a mobile number, an ID number, an e-mail or an @alias";
  }
  if (digits.length === 12 && digits.startsWith("573")) return mobileKey(digits.slice(2));
  if (digits.startsWith("3") && digits.length >= 9 && digits.length <= 11) return mobileKey(digits);
  return idKey(digits);
}

function idKey(digits: string): KeyOrProblem {
  const isCedula =
    (digits.length >= 6 && digits.length <= 8) || (digits.length === 10 && digits.startsWith("1"));
  if (isCedula) return breb("BREB_ID", digits);
  if (/^[89]/.test(digits) && digits.length === 9) return breb("BREB_ID", digits);
  if (/^[89]/.test(digits) && digits.length === 10) {
    const outcome = checkNit(digits);
    return outcome.valid ? breb("BREB_ID", digits) : outcome.reason;
  }
  return "an ID is a cédula (6–8 digits, or 10 digits starting with 1) or a NIT (9 digits starting with 8 or 9, plus its check digit)";
}
