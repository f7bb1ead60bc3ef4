import { type Contract, type Corridor, type CorridorCountry, findCorridor } from "./corridors.js";
import { validateArDestination } from "./destinations/ar.js";
import { validateBoDestination } from "./destinations/bo.js";
import { validateBrDestination } from "./destinations/br.js";
import { validateCoDestination } from "./destinations/co.js";
import type {
  CountryDestination,
  DestinationRequest,
  RecipientInput,
} from "./destinations/destination-request.js";
import { validateGhDestination } from "./destinations/gh.js";
import { validateMerchantDestination } from "./destinations/merchant-ke-tz-ug.js";
import { validateNgDestination } from "./destinations/ng.js";
import { validatePeDestination } from "./destinations/pe.js";
import { validateVnDestination } from "./destinations/vn.js";
import { validateZmDestination } from "./destinations/zm.js";
import { looksLikeEmvQr } from "./emv-detect.js";
import {
  fail,
  ok,
  type PaymentMethod,
  type Recipient,
  type Result,
  type ValidatedDestination,
} from "./types.js";

/**
 * Validation of a `lookupPaymentCode` request. The first failing check wins, in this order:
 *
 * 1. USE_DECODE_QR: payment_destination or merchant_id holds an EMV QR payload (wrong endpoint).
 * 2. customer_id present (MISSING_REQUIRED_FIELD). Its existence is checked by the caller.
 * 3. country_code present, two letters (INVALID_FIELD), a corridor (UNSUPPORTED_COUNTRY).
 * 4. currency, when sent, is the corridor's (INVALID_FIELD).
 * 5. Contract: merchant when the corridor takes it and merchant_id is sent (KE, TZ) or it is the only one (VN);
 *    otherwise manual. KE/TZ with none of merchant_id, payment_destination and payment_method:
 *    MISSING_REQUIRED_FIELD on merchant_id; two different numbers in merchant_id and payment_destination: INVALID_FIELD.
 * 6. Manual: payment_method present and the corridor's (INVALID_PAYMENT_METHOD), payment_destination present.
 *    Merchant: merchant_id present; payment_method optional but, when sent, the corridor's.
 * 7. payment_destination_code: required and one of the fixed codes where the corridor says so
 *    (MISSING_REQUIRED_FIELD / INVALID_DESTINATION_CODE); institution codes are resolved in step 8.
 * 8. The country's validator: institution code, extra fields (BO account_type and recipient, paybill
 *    account_reference, VN BIN), then the destination's format and check digits (INVALID_DESTINATION).
 *
 * Strings are trimmed and blanks count as absent. Fields a corridor does not use are ignored.
 */

export interface LookupRequestInput {
  customer_id?: string | undefined;
  country_code?: string | undefined;
  payment_method?: string | undefined;
  /** Already merged with the legacy `qr_string` alias by the gateway. */
  payment_destination?: string | undefined;
  payment_destination_code?: string | undefined;
  account_type?: string | undefined;
  recipient?: RecipientInput | undefined;
  merchant_id?: string | undefined;
  account_reference?: string | undefined;
  currency?: string | undefined;
}

type CountryValidator = (req: DestinationRequest) => Result<CountryDestination>;

const VALIDATORS: Readonly<Record<CorridorCountry, CountryValidator>> = {
  AR: validateArDestination,
  BR: validateBrDestination,
  PE: validatePeDestination,
  BO: validateBoDestination,
  CO: validateCoDestination,
  NG: validateNgDestination,
  GH: validateGhDestination,
  ZM: validateZmDestination,
  KE: validateMerchantDestination,
  TZ: validateMerchantDestination,
  UG: validateMerchantDestination,
  VN: validateVnDestination,
};

const PAYMENT_METHODS: readonly PaymentMethod[] = ["payment_key", "ewallet", "bank_transfer"];

const TEXT_FIELDS = [
  "customer_id",
  "country_code",
  "payment_method",
  "payment_destination",
  "payment_destination_code",
  "account_type",
  "merchant_id",
  "account_reference",
  "currency",
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

/** The request with every string trimmed and blank strings dropped. */
type Input = { [K in TextField]?: string } & { recipient?: RecipientInput };

export function validateLookupRequest(raw: LookupRequestInput): Result<ValidatedDestination> {
  const input = normalise(raw);
  const routed = rejectQrPayload(input);
  if (!routed.ok) return routed;
  if (input.customer_id === undefined) {
    return fail("MISSING_REQUIRED_FIELD", "customer_id is required", "customer_id");
  }
  const corridor = resolveCorridor(input.country_code);
  if (!corridor.ok) return corridor;
  const currency = checkCurrency(input.currency, corridor.value);
  if (!currency.ok) return currency;
  const contract = chooseContract(input, corridor.value);
  if (!contract.ok) return contract;
  const request =
    contract.value === "merchant"
      ? merchantRequest(input, corridor.value)
      : manualRequest(input, corridor.value);
  if (!request.ok) return request;
  const destination = VALIDATORS[corridor.value.country_code](request.value);
  if (!destination.ok) return destination;
  return ok(assemble(corridor.value, destination.value));
}

const blankToUndefined = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
};

function normalise(raw: LookupRequestInput): Input {
  const input: Input = {};
  for (const field of TEXT_FIELDS) {
    const value = blankToUndefined(raw[field]);
    if (value !== undefined) input[field] = value;
  }
  if (raw.recipient !== undefined) {
    input.recipient = {
      name_first: blankToUndefined(raw.recipient.name_first),
      name_last: blankToUndefined(raw.recipient.name_last),
      ic_number: blankToUndefined(raw.recipient.ic_number),
    };
  }
  return input;
}

/** A QR payload means the wrong endpoint: nothing else about the request is worth reporting. */
function rejectQrPayload(input: Input): Result<true> {
  const field = (["payment_destination", "merchant_id"] as const).find((name) =>
    looksLikeEmvQr(input[name] ?? ""),
  );
  if (field === undefined) return ok(true);
  return fail(
    "USE_DECODE_QR",
    "This is a scanned EMV QR payload: send it to POST /decodeQr as qr_string",
    field,
  );
}

function resolveCorridor(code: string | undefined): Result<Corridor> {
  if (code === undefined) return fail("MISSING_REQUIRED_FIELD", "country_code is required", "country_code");
  if (!/^[A-Za-z]{2}$/.test(code)) {
    return fail("INVALID_FIELD", "country_code is an ISO 3166 alpha-2 code, e.g. BR", "country_code");
  }
  const corridor = findCorridor(code);
  if (corridor === undefined) {
    return fail(
      "UNSUPPORTED_COUNTRY",
      `No payouts to ${code.toUpperCase()}: supported are AR, BR, PE, BO, CO, NG, GH, ZM, KE, TZ, UG, VN`,
      "country_code",
    );
  }
  return ok(corridor);
}

function checkCurrency(currency: string | undefined, corridor: Corridor): Result<true> {
  if (currency === undefined || currency.toUpperCase() === corridor.currency) return ok(true);
  return fail("INVALID_FIELD", `Payouts to ${corridor.country_code} are in ${corridor.currency}`, "currency");
}

function chooseContract(input: Input, corridor: Corridor): Result<Contract> {
  const takes = (contract: Contract) => corridor.contracts.includes(contract);
  if (!takes("manual")) return ok("merchant");
  const typed = input.payment_destination;
  // With a payment_method the partner is on the typed contract, and payment_destination is what is missing.
  if (
    takes("merchant") &&
    input.merchant_id === undefined &&
    typed === undefined &&
    input.payment_method === undefined
  ) {
    return fail(
      "MISSING_REQUIRED_FIELD",
      `merchant_id is required for ${corridor.country_code} (or payment_destination with payment_method ${corridor.payment_method})`,
      "merchant_id",
    );
  }
  if (!takes("merchant") || input.merchant_id === undefined) return ok("manual");
  if (typed !== undefined && typed !== input.merchant_id) {
    return fail(
      "INVALID_FIELD",
      "Send the till or paybill number in merchant_id or in payment_destination, not two different numbers",
      "merchant_id",
    );
  }
  return ok("merchant");
}

function manualRequest(input: Input, corridor: Corridor): Result<DestinationRequest> {
  const method = checkPaymentMethod(input.payment_method, corridor, true);
  if (!method.ok) return method;
  if (input.payment_destination === undefined) return missingDestination(input, corridor);
  const code = checkDestinationCode(input.payment_destination_code, corridor);
  if (!code.ok) return code;
  return ok(destinationRequest(input, corridor, input.payment_destination, "payment_destination"));
}

function merchantRequest(input: Input, corridor: Corridor): Result<DestinationRequest> {
  if (input.merchant_id === undefined) {
    const hint =
      corridor.country_code === "VN" ? " (the bank account number; its BIN goes in account_reference)" : "";
    return fail(
      "MISSING_REQUIRED_FIELD",
      `merchant_id is required for ${corridor.country_code}${hint}`,
      "merchant_id",
    );
  }
  const method = checkPaymentMethod(input.payment_method, corridor, false);
  if (!method.ok) return method;
  const code = checkDestinationCode(input.payment_destination_code, corridor);
  if (!code.ok) return code;
  return ok(destinationRequest(input, corridor, input.merchant_id, "merchant_id"));
}

function missingDestination(input: Input, corridor: Corridor): Result<never> {
  const hint =
    input.merchant_id === undefined
      ? ""
      : ` (merchant_id is for KE, TZ and VN; ${corridor.country_code} takes the destination in payment_destination)`;
  return fail("MISSING_REQUIRED_FIELD", `payment_destination is required${hint}`, "payment_destination");
}

function checkPaymentMethod(method: string | undefined, corridor: Corridor, required: boolean): Result<true> {
  const field = "payment_method";
  if (method === undefined) {
    return required ? fail("MISSING_REQUIRED_FIELD", "payment_method is required", field) : ok(true);
  }
  const lower = method.toLowerCase();
  if (!PAYMENT_METHODS.some((known) => known === lower)) {
    return fail("INVALID_PAYMENT_METHOD", `payment_method is one of ${PAYMENT_METHODS.join(", ")}`, field);
  }
  if (lower !== corridor.payment_method) {
    return fail(
      "INVALID_PAYMENT_METHOD",
      `Payouts to ${corridor.country_code} use payment_method ${corridor.payment_method}`,
      field,
    );
  }
  return ok(true);
}

function checkDestinationCode(code: string | undefined, corridor: Corridor): Result<true> {
  const field = "payment_destination_code";
  const rule = corridor.destination_code;
  if (rule.kind === "none") return ok(true);
  if (code === undefined) {
    const required = rule.kind === "institution" || rule.required;
    const choices =
      rule.kind === "fixed"
        ? ` (${rule.codes.join(" or ")})`
        : ` (see GET /listBanks?country_code=${corridor.country_code})`;
    return required
      ? fail("MISSING_REQUIRED_FIELD", `payment_destination_code is required${choices}`, field)
      : ok(true);
  }
  if (rule.kind === "fixed" && !rule.codes.includes(code.toUpperCase())) {
    return fail(
      "INVALID_DESTINATION_CODE",
      `payment_destination_code for ${corridor.country_code} is ${rule.codes.join(" or ")}`,
      field,
    );
  }
  return ok(true);
}

function destinationRequest(
  input: Input,
  corridor: Corridor,
  destination: string,
  field: DestinationRequest["field"],
): DestinationRequest {
  return {
    country_code: corridor.country_code,
    destination,
    field,
    code: input.payment_destination_code?.toUpperCase(),
    account_type: input.account_type,
    recipient: input.recipient,
    account_reference: input.account_reference,
  };
}

function assemble(corridor: Corridor, destination: CountryDestination): ValidatedDestination {
  return {
    is_dynamic: false,
    is_business: false,
    merchant: "",
    merchant_id: "",
    merchant_name: "",
    amount: "",
    ...destination,
    country_code: corridor.country_code,
    currency: corridor.currency,
    payment_method: corridor.payment_method,
    recipient: recipientOf(corridor, destination),
  };
}

/** The partner API's recipient keys: account_no and country always; bank keys for institution-addressed corridors. */
function recipientOf(corridor: Corridor, destination: CountryDestination): Recipient {
  const bank: Recipient = corridor.institution_addressed
    ? {
        bank_code: destination.payment_destination_code,
        bank_no: destination.payment_destination_code,
        bank_name: destination.institution_name,
      }
    : {};
  return {
    account_no: destination.payment_destination,
    country: corridor.country_code,
    ...bank,
    ...destination.recipient,
  };
}
