import { fail, ok, type PaymentType, type Result } from "../types.js";
import { compactAccountNumber } from "./account-number.js";
import type { CountryDestination, DestinationRequest } from "./destination-request.js";

/**
 * Kenya, Tanzania, Uganda: merchant till and paybill numbers (short codes). The kind comes from
 * payment_destination_code (TILL / PAYBILL) or, when absent, from the presence of a bill reference:
 * paybills need one, tills take none. Checked in order: code, account_reference, number.
 */

/**
 * Short-code lengths. KE 5–7 (till 5–7, paybill 6–7); TZ 5–8 (Lipa Namba sources disagree: 5–7 or
 * 8 digits); UG 5–8 (MTN MoMo Pay merchant codes are 6 digits, Airtel's format is unknown).
 */
export const MERCHANT_NUMBER_DIGITS: Readonly<Record<string, { min: number; max: number }>> = {
  KE: { min: 5, max: 7 },
  TZ: { min: 5, max: 8 },
  UG: { min: 5, max: 8 },
};
/** Daraja's AccountReference limit (STK push); the B2B limit is unverified, so the stricter one applies. */
const ACCOUNT_REFERENCE_PATTERN = /^[A-Za-z0-9]{1,12}$/;
export const MERCHANT_KINDS: Readonly<Record<string, { type: PaymentType; name: string }>> = {
  TILL: { type: "till", name: "Till number" },
  PAYBILL: { type: "paybill", name: "Paybill number" },
};

export function validateMerchantDestination(req: DestinationRequest): Result<CountryDestination> {
  const kind = paymentType(req);
  const reference = checkReference(kind, req.account_reference);
  if (!reference.ok) return reference;
  const number = merchantNumber(req);
  if (!number.ok) return number;
  const code = kind === "till" ? "TILL" : "PAYBILL";
  return ok({
    destination_type: code,
    payment_destination: number.value,
    payment_destination_code: code,
    institution_name: MERCHANT_KINDS[code]?.name ?? "",
    is_business: true,
    is_dynamic: true,
    merchant_id: number.value,
    payment_type: kind,
    merchant_info: {
      merchant_id: number.value,
      display_name: "",
      country_code: req.country_code,
      payment_type: kind,
      lipa_number: number.value,
      ...(req.account_reference === undefined ? {} : { account_reference: req.account_reference }),
    },
    ...(req.account_reference === undefined ? {} : { account_reference: req.account_reference }),
  });
}

function paymentType(req: DestinationRequest): PaymentType {
  const explicit = req.code === undefined ? undefined : MERCHANT_KINDS[req.code];
  if (explicit !== undefined) return explicit.type;
  return req.account_reference === undefined ? "till" : "paybill";
}

function checkReference(kind: PaymentType, reference: string | undefined): Result<true> {
  const field = "account_reference";
  if (kind === "till") {
    return reference === undefined
      ? ok(true)
      : fail("INVALID_FIELD", "Till payments take no account_reference", field);
  }
  if (reference === undefined) {
    return fail(
      "MISSING_REQUIRED_FIELD",
      "account_reference (the bill reference) is required for paybill payments",
      field,
    );
  }
  return ACCOUNT_REFERENCE_PATTERN.test(reference)
    ? ok(true)
    : fail("INVALID_FIELD", "account_reference has 1 to 12 letters or digits", field);
}

function merchantNumber(req: DestinationRequest): Result<string> {
  const number = compactAccountNumber(req.destination);
  const { min, max } = MERCHANT_NUMBER_DIGITS[req.country_code] ?? { min: 5, max: 8 };
  if (/^\d+$/.test(number) && number.length >= min && number.length <= max) return ok(number);
  return fail(
    "INVALID_DESTINATION",
    `Invalid till or paybill number: ${min} to ${max} digits expected`,
    req.field,
  );
}
