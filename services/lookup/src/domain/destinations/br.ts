import { checkCnpj } from "../check-digits/cnpj.js";
import { checkCpf } from "../check-digits/cpf.js";
import { fail, ok, type Result } from "../types.js";
import type { CountryDestination, DestinationRequest } from "./destination-request.js";
import { isEmailAddress } from "./email-address.js";
import { parsePhoneInput } from "./phone-input.js";

/**
 * Brazil: Pix keys as the DICT defines them (CPF, CNPJ, PHONE, EMAIL, EVP), returned in DICT canonical
 * form. Eleven bare digits are a CPF even when they also look like a mobile number: phone keys must
 * carry +55.
 */

const INVALID = "INVALID_DESTINATION";
const MAX_EMAIL_LENGTH = 77;
const EVP_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The 67 area codes (DDD) in use. */
const DDDS = new Set(
  "11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99".split(
    " ",
  ),
);

export const isBrazilianDdd = (ddd: string): boolean => DDDS.has(ddd);

export function validateBrDestination(req: DestinationRequest): Result<CountryDestination> {
  const raw = req.destination;
  if (raw.startsWith("+")) return validatePhoneKey(raw, req.field);
  if (raw.includes("@")) return validateEmailKey(raw, req.field);
  const lower = raw.toLowerCase();
  if (EVP_PATTERN.test(lower)) return pixKey("PIX_EVP", lower);
  if (/^[0-9a-f]{32}$/.test(lower) && /[a-f]/.test(lower)) {
    return fail(
      INVALID,
      "Invalid Pix random key (EVP): it has 36 characters, with hyphens (8-4-4-4-12)",
      req.field,
    );
  }
  return validateDocumentKey(raw, req.field);
}

function pixKey(type: string, key: string, isBusiness = false): Result<CountryDestination> {
  return ok({
    destination_type: type,
    payment_destination: key,
    payment_destination_code: "PIX",
    institution_name: "Pix",
    is_business: isBusiness,
  });
}

/** CPF and CNPJ, accepted with or without their usual punctuation (529.982.247-25, 11.222.333/0001-81). */
function validateDocumentKey(raw: string, field: string): Result<CountryDestination> {
  const compact = raw.replace(/[\s./-]/g, "").toUpperCase();
  if (/^\d{11}$/.test(compact)) {
    const outcome = checkCpf(compact);
    return outcome.valid
      ? pixKey("PIX_CPF", compact)
      : fail(INVALID, `Invalid CPF: ${outcome.reason}`, field);
  }
  if (/^[0-9A-Z]{14}$/.test(compact)) {
    const outcome = checkCnpj(compact);
    return outcome.valid
      ? pixKey("PIX_CNPJ", compact, true)
      : fail(INVALID, `Invalid CNPJ: ${outcome.reason}`, field);
  }
  if (/^55\d{10,11}$/.test(compact)) {
    return fail(INVALID, "Not a Pix key: phone keys are written in +55 format, e.g. +5511987654321", field);
  }
  if (/^\d+$/.test(compact)) return fail(INVALID, "Not a Pix key: a CPF has 11 digits and a CNPJ 14", field);
  return fail(INVALID, "Not a Pix key: expected a CPF, CNPJ, +55 mobile number, e-mail or random key", field);
}

/** A Pix phone key is a Brazilian mobile: +55, a DDD in use, and 9 digits starting with 9. */
function validatePhoneKey(raw: string, field: string): Result<CountryDestination> {
  const phone = parsePhoneInput(raw);
  const problem = phone === undefined ? "digits only after +55" : phoneKeyProblem(phone.digits);
  if (phone === undefined || problem !== undefined)
    return fail(INVALID, `Invalid Pix phone key: ${problem}`, field);
  return pixKey("PIX_PHONE", `+${phone.digits}`);
}

function phoneKeyProblem(digits: string): string | undefined {
  if (!digits.startsWith("55")) return "Pix phone keys are Brazilian numbers (+55)";
  if (digits.length !== 13) return "expected +55, a 2-digit area code (DDD) and a 9-digit mobile number";
  const ddd = digits.slice(2, 4);
  if (!isBrazilianDdd(ddd)) return `area code (DDD) ${ddd} does not exist`;
  if (digits[4] !== "9") return "not a mobile number (mobile numbers have 9 digits starting with 9)";
  return undefined;
}

function validateEmailKey(raw: string, field: string): Result<CountryDestination> {
  // DICT stores e-mail keys in lower case.
  const email = raw.toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH) {
    return fail(INVALID, `Invalid Pix e-mail key: at most ${MAX_EMAIL_LENGTH} characters`, field);
  }
  if (!isEmailAddress(email, MAX_EMAIL_LENGTH))
    return fail(INVALID, "Invalid Pix e-mail key: not an e-mail address", field);
  return pixKey("PIX_EMAIL", email);
}
