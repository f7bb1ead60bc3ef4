import { findZmBank, ZM_MOBILE_MONEY_NETWORKS } from "../institutions/zm-banks.js";
import { fail, ok, type Result } from "../types.js";
import { compactAccountNumber } from "./account-number.js";
import { type CountryDestination, type DestinationRequest, unknownCode } from "./destination-request.js";

/**
 * Zambia: bank accounts only. Mobile-money networks and +260 phone numbers are refused; an account
 * number is never refused for merely starting like a mobile number (09x/07x).
 */

const BANKS_ONLY =
  "Zambian payouts go to bank accounts only; mobile money (MTN, Airtel, Zamtel) is not supported";
/** Per-bank lengths are unknown (a Zanaco example has 13 digits), hence the lenient range. */
const ACCOUNT_DIGITS = { min: 8, max: 16 };

export function validateZmDestination(req: DestinationRequest): Result<CountryDestination> {
  const code = req.code ?? "";
  if (ZM_MOBILE_MONEY_NETWORKS.includes(code.toUpperCase())) {
    return unknownCode(BANKS_ONLY);
  }
  const match = findZmBank(code);
  if (match === undefined) {
    return unknownCode("Unknown Zambian bank: see GET /listBanks?country_code=ZM");
  }
  if (req.destination.startsWith("+"))
    return fail("INVALID_DESTINATION", `Phone numbers are not accepted: ${BANKS_ONLY}`, req.field);
  const account = compactAccountNumber(req.destination);
  const { min, max } = ACCOUNT_DIGITS;
  if (!/^\d+$/.test(account) || account.length < min || account.length > max) {
    return fail(
      "INVALID_DESTINATION",
      `Invalid bank account number: ${min} to ${max} digits expected`,
      req.field,
    );
  }
  const destination: CountryDestination = {
    destination_type: "ZM_BANK_ACCOUNT",
    payment_destination: account,
    payment_destination_code: match.bank.code,
    institution_name: match.bank.name,
  };
  if (match.remappedFrom === undefined) return ok(destination);
  return ok({
    ...destination,
    warnings: [
      {
        code: "LEGACY_BANK_CODE",
        message: `${match.remappedFrom} merged into ${match.bank.name}; use ${match.bank.code}`,
        field: "payment_destination_code",
      },
    ],
    suggested_values: { payment_destination_code: match.bank.code },
  });
}
