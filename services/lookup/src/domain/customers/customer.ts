import { checkCnpj } from "../check-digits/cnpj.js";
import { checkCpf } from "../check-digits/cpf.js";
import { isEmailAddress } from "../destinations/email-address.js";
import { fail, ok, type Result } from "../types.js";
import { isCountryCode } from "./iso-countries.js";

/**
 * A registered sender: a transaction's sender identity always comes from the registered customer. Its
 * fields are the partner API's sender keys; the sender map of every transaction is copied from here.
 *
 * Rules, checked in this order (the first failure wins, naming its field):
 * - name_first, name_last: required, 1–100 characters after trimming, at least one letter, no control
 *   characters.
 * - country: required, ISO 3166-1 alpha-2 (case-insensitive, stored upper case; XK accepted).
 * - ic_type and ic_number: optional but together. ic_type is one of IC_TYPES (case-insensitive);
 *   ic_number has 1–40 letters, digits, spaces, `.`, `-` or `/`. CPF and CNPJ numbers must pass their
 *   check digits and are stored bare.
 * - phone: optional, international form: `+`, country code and subscriber number, 8–15 digits in all
 *   (E.164); spaces, dots, hyphens and parentheses are removed.
 * - email: optional, at most 254 characters, stored lower case.
 * - external_reference: optional, the partner's own id for the customer, 1–100 characters, no control
 *   characters. Not unique: registering the same person twice gives two customers.
 */

/** A valid customer in canonical form; optional fields are "" when absent. */
export interface CustomerFields {
  readonly name_first: string;
  readonly name_last: string;
  readonly country: string;
  readonly ic_number: string;
  readonly ic_type: string;
  readonly phone: string;
  readonly email: string;
  readonly external_reference: string;
}

/** What a partner sends: the same fields, any of them left out, before validation. */
export type CustomerInput = { readonly [Field in keyof CustomerFields]?: string | undefined };

/**
 * Identity document types a sender may declare (`ic_type`), the one list: the API documents its codes
 * (IC_TYPE_CODES, through the `@payouts/lookup/ic-types` entry point). Generic types first, then local ones
 * of the corridors.
 */
export const IC_TYPES: Readonly<Record<string, string>> = {
  NATIONAL_ID: "national identity card",
  PASSPORT: "passport",
  DRIVERS_LICENSE: "driving licence",
  RESIDENCE_PERMIT: "residence permit",
  TAX_ID: "tax identification number",
  DNI: "Documento Nacional de Identidad (AR, PE)",
  CUIL: "Código Único de Identificación Laboral (AR)",
  CUIT: "Clave Única de Identificación Tributaria (AR)",
  CPF: "Cadastro de Pessoas Físicas (BR)",
  CNPJ: "Cadastro Nacional da Pessoa Jurídica (BR)",
  CI: "Cédula de Identidad (BO)",
  CC: "Cédula de Ciudadanía (CO)",
  CE: "Carné / Cédula de Extranjería (PE, BO, CO)",
  NIT: "Número de Identificación Tributaria (CO)",
  RUC: "Registro Único de Contribuyentes (PE)",
  BVN: "Bank Verification Number (NG)",
  NIN: "National Identification Number (NG)",
  GHANA_CARD: "Ghana Card (GH)",
  NRC: "National Registration Card (ZM)",
};

/** The `ic_type` codes, in IC_TYPES's order. */
export const IC_TYPE_CODES: readonly string[] = Object.keys(IC_TYPES);

const NAME_MAX = 100;
const IC_NUMBER = /^[\p{L}\p{N}](?:[\p{L}\p{N} ./-]{0,38}[\p{L}\p{N}])?$/u;
const CONTROL = /\p{Cc}/u;
const LETTER = /\p{L}/u;
const PHONE = /^\+[1-9][0-9]{7,14}$/;
const EMAIL_MAX = 254;
const EXTERNAL_REFERENCE_MAX = 100;

const clean = (value: string | undefined): string => value?.trim() ?? "";

export function validateCustomer(input: CustomerInput): Result<CustomerFields> {
  const name_first = checkName(input, "name_first");
  if (!name_first.ok) return name_first;
  const name_last = checkName(input, "name_last");
  if (!name_last.ok) return name_last;
  const country = checkCountry(clean(input.country));
  if (!country.ok) return country;
  const document = checkDocument(clean(input.ic_type), clean(input.ic_number));
  if (!document.ok) return document;
  const phone = checkPhone(clean(input.phone));
  if (!phone.ok) return phone;
  const email = checkEmail(clean(input.email));
  if (!email.ok) return email;
  const external_reference = checkExternalReference(clean(input.external_reference));
  if (!external_reference.ok) return external_reference;
  return ok({
    name_first: name_first.value,
    name_last: name_last.value,
    country: country.value,
    ...document.value,
    phone: phone.value,
    email: email.value,
    external_reference: external_reference.value,
  });
}

function checkName(input: CustomerInput, field: "name_first" | "name_last"): Result<string> {
  const name = clean(input[field]);
  if (name === "") return fail("MISSING_REQUIRED_FIELD", `${field} is required`, field);
  if ([...name].length > NAME_MAX) {
    return fail("INVALID_FIELD", `${field} has at most ${NAME_MAX} characters`, field);
  }
  if (CONTROL.test(name) || !LETTER.test(name)) {
    return fail("INVALID_FIELD", `${field} must be a name: letters, without control characters`, field);
  }
  return ok(name);
}

function checkCountry(country: string): Result<string> {
  if (country === "") return fail("MISSING_REQUIRED_FIELD", "country is required", "country");
  const upper = country.toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper) || !isCountryCode(upper)) {
    return fail("INVALID_FIELD", "country is an ISO 3166-1 alpha-2 code, e.g. BR", "country");
  }
  return ok(upper);
}

function checkDocument(type: string, number: string): Result<{ ic_type: string; ic_number: string }> {
  if (type === "" && number === "") return ok({ ic_type: "", ic_number: "" });
  if (number === "") return fail("MISSING_REQUIRED_FIELD", "ic_number is required with ic_type", "ic_number");
  if (type === "") return fail("MISSING_REQUIRED_FIELD", "ic_type is required with ic_number", "ic_type");
  const ic_type = type.toUpperCase();
  if (!Object.hasOwn(IC_TYPES, ic_type)) {
    return fail("INVALID_FIELD", `ic_type is one of ${IC_TYPE_CODES.join(", ")}`, "ic_type");
  }
  if (!IC_NUMBER.test(number)) {
    return fail(
      "INVALID_FIELD",
      "ic_number has 1 to 40 letters, digits, spaces, '.', '-' or '/'",
      "ic_number",
    );
  }
  const ic_number = checkBrazilianNumber(ic_type, number);
  if (!ic_number.ok) return ic_number;
  return ok({ ic_type, ic_number: ic_number.value });
}

/** CPF and CNPJ carry check digits: a typo is caught here, not by the receiving bank. */
function checkBrazilianNumber(type: string, number: string): Result<string> {
  if (type !== "CPF" && type !== "CNPJ") return ok(number);
  const bare = number.replace(/[\s./-]/g, "").toUpperCase();
  const outcome = type === "CPF" ? checkCpf(bare) : checkCnpj(bare);
  if (!outcome.valid)
    return fail("INVALID_FIELD", `ic_number is not a valid ${type}: ${outcome.reason}`, "ic_number");
  return ok(bare);
}

function checkPhone(phone: string): Result<string> {
  if (phone === "") return ok("");
  const compact = phone.replace(/[\s.()-]/g, "");
  if (!PHONE.test(compact)) {
    return fail(
      "INVALID_FIELD",
      "phone is an international number: + and 8 to 15 digits, e.g. +5511987654321",
      "phone",
    );
  }
  return ok(compact);
}

function checkEmail(email: string): Result<string> {
  if (email === "") return ok("");
  const lower = email.toLowerCase();
  if (!isEmailAddress(lower, EMAIL_MAX)) {
    return fail("INVALID_FIELD", "email is not an e-mail address", "email");
  }
  return ok(lower);
}

function checkExternalReference(reference: string): Result<string> {
  if (reference === "") return ok("");
  if ([...reference].length > EXTERNAL_REFERENCE_MAX || CONTROL.test(reference)) {
    return fail(
      "INVALID_FIELD",
      `external_reference has 1 to ${EXTERNAL_REFERENCE_MAX} characters, without control characters`,
      "external_reference",
    );
  }
  return ok(reference);
}

/** The sender map of a customer: only the keys that have a value. */
export function senderOf(customer: CustomerFields): Record<string, string> {
  const sender: Record<string, string> = {};
  const keys = ["name_first", "name_last", "country", "ic_number", "ic_type", "phone", "email"] as const;
  for (const key of keys) if (customer[key] !== "") sender[key] = customer[key];
  return sender;
}
