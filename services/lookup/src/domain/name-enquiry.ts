import { BR_COMPANY_SUFFIXES, MERCHANT_NAMES, type NameList, PERSON_NAMES } from "./sandbox-names.js";
import type { ValidatedDestination } from "./types.js";

/**
 * Name enquiry: who holds a validated destination. A well-formed destination that nobody holds is
 * answered `found: false`, which the caller reports as UNKNOWN_DESTINATION (an unknown
 * destination fails at lookup). Merchants (tills, paybills) answer their display name in `name`, with
 * empty first and last names.
 */

export type NameEnquiryResult =
  | { readonly found: true; readonly name_first: string; readonly name_last: string; readonly name: string }
  | { readonly found: false };

export interface NameEnquiry {
  resolve(destination: ValidatedDestination): Promise<NameEnquiryResult>;
}

/** Sandbox destinations that are well-formed (check digits included) but answer "not found". */
export const SANDBOX_NOT_FOUND: readonly {
  country_code: string;
  payment_destination: string;
  kind: string;
}[] = [
  { country_code: "AR", payment_destination: "2850590900000000000000", kind: "CBU" },
  { country_code: "AR", payment_destination: "sandbox.notfound", kind: "alias" },
  { country_code: "BR", payment_destination: "00000000191", kind: "Pix CPF" },
  { country_code: "BR", payment_destination: "notfound@example.com", kind: "Pix e-mail" },
  {
    country_code: "BR",
    payment_destination: "00000000-0000-0000-0000-000000000000",
    kind: "Pix random key (EVP)",
  },
  { country_code: "PE", payment_destination: "+51900000000", kind: "Yape / Plin mobile" },
  { country_code: "BO", payment_destination: "0000000000", kind: "bank account (e.g. bank 1)" },
  { country_code: "CO", payment_destination: "@notfound", kind: "Bre-B alias" },
  { country_code: "CO", payment_destination: "+573000000000", kind: "Bre-B mobile" },
  { country_code: "NG", payment_destination: "9999999990", kind: "NUBAN at GTBank (058 / 000013)" },
  { country_code: "NG", payment_destination: "9000000000", kind: "wallet number (e.g. OPay 100004)" },
  { country_code: "GH", payment_destination: "+233240000000", kind: "MTN mobile money" },
  { country_code: "GH", payment_destination: "0000000000000", kind: "bank account" },
  { country_code: "ZM", payment_destination: "0000000000000", kind: "bank account" },
  { country_code: "KE", payment_destination: "000000", kind: "till or paybill" },
  { country_code: "TZ", payment_destination: "000000", kind: "till or paybill" },
  { country_code: "UG", payment_destination: "000000", kind: "till or paybill" },
  { country_code: "VN", payment_destination: "0000000000", kind: "bank account (any BIN)" },
];

const notFoundKeys = new Set(
  SANDBOX_NOT_FOUND.map((entry) => `${entry.country_code}|${entry.payment_destination}`),
);

/**
 * Deterministic sandbox: the listed destinations are not found; every other destination gets a
 * synthetic name derived from a hash of country, type and destination, so repeated lookups agree.
 * BO destinations carry the partner's recipient name (there is no name enquiry there) and keep it.
 */
export function createSandboxNameEnquiry(): NameEnquiry {
  return {
    resolve: async (destination) => sandboxName(destination),
  };
}

function sandboxName(d: ValidatedDestination): NameEnquiryResult {
  if (notFoundKeys.has(`${d.country_code}|${d.payment_destination}`)) return { found: false };
  const given = partnerGivenName(d);
  if (given !== undefined) return given;
  const hash = fnv1a(`${d.country_code}|${d.destination_type}|${d.payment_destination}`);
  if (d.payment_type !== undefined)
    return business(`${pick(MERCHANT_NAMES.first, hash)} ${pick(MERCHANT_NAMES.last, hash >>> 8)}`);
  const names = PERSON_NAMES[d.country_code];
  if (names === undefined) return { found: false };
  if (d.destination_type === "PIX_CNPJ")
    return business(`${pick(names.last, hash)} ${pick(BR_COMPANY_SUFFIXES, hash >>> 8)}`);
  return person(names, hash);
}

function partnerGivenName(d: ValidatedDestination): NameEnquiryResult | undefined {
  const { name_first, name_last } = d.recipient;
  if (name_first === undefined || name_last === undefined) return undefined;
  return { found: true, name_first, name_last, name: `${name_first} ${name_last}` };
}

function person(names: NameList, hash: number): NameEnquiryResult {
  const name_first = pick(names.first, hash);
  const name_last = pick(names.last, hash >>> 8);
  const name = names.familyNameFirst === true ? `${name_last} ${name_first}` : `${name_first} ${name_last}`;
  return { found: true, name_first, name_last, name };
}

const business = (name: string): NameEnquiryResult => ({ found: true, name_first: "", name_last: "", name });

const pick = (list: readonly string[], hash: number): string => list[hash % list.length] ?? "";

/** 32-bit FNV-1a over UTF-16 code units: tiny, stable across runs and platforms. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The destination with the holder's name filled in: recipient name keys always; merchant, merchant_name
 * and merchant_info.display_name for tills and paybills.
 */
export function applyNameEnquiry(
  destination: ValidatedDestination,
  result: Extract<NameEnquiryResult, { found: true }>,
): ValidatedDestination {
  const named: ValidatedDestination = {
    ...destination,
    recipient: {
      ...destination.recipient,
      name: result.name,
      name_first: result.name_first,
      name_last: result.name_last,
    },
  };
  if (destination.payment_type === undefined) return named;
  return {
    ...named,
    merchant: result.name,
    merchant_name: result.name,
    ...(destination.merchant_info === undefined
      ? {}
      : { merchant_info: { ...destination.merchant_info, display_name: result.name } }),
  };
}
