import { findVnBank } from "../institutions/vn-banks.js";
import { fail, ok, type Result } from "../types.js";
import { compactAccountNumber } from "./account-number.js";
import { type CountryDestination, type DestinationRequest, unknownCode } from "./destination-request.js";

/**
 * Vietnam (merchant contract): merchant_id is the bank account number, account_reference the bank's
 * 6-digit NAPAS BIN. No national account format or check digit exists; VietQR caps the id at 19
 * characters, and 6 digits is the shortest length seen.
 */

const ACCOUNT_DIGITS = { min: 6, max: 19 };
const BIN_FIELD = "account_reference";

export function validateVnDestination(req: DestinationRequest): Result<CountryDestination> {
  const bin = req.account_reference;
  if (bin === undefined) {
    return fail(
      "MISSING_REQUIRED_FIELD",
      "account_reference (the bank's 6-digit BIN) is required for Vietnam",
      BIN_FIELD,
    );
  }
  if (!/^\d{6}$/.test(bin)) return fail("INVALID_FIELD", "A bank BIN has 6 digits (e.g. 970436)", BIN_FIELD);
  const bank = findVnBank(bin);
  if (bank === undefined) {
    return unknownCode("Unknown bank BIN: see GET /listBanks?country_code=VN", BIN_FIELD);
  }
  const account = compactAccountNumber(req.destination);
  const { min, max } = ACCOUNT_DIGITS;
  if (!/^\d+$/.test(account) || account.length < min || account.length > max) {
    return fail("INVALID_DESTINATION", `Invalid account number: ${min} to ${max} digits expected`, req.field);
  }
  return ok({
    destination_type: "VN_ACCOUNT",
    payment_destination: account,
    payment_destination_code: bank.code,
    institution_name: bank.name,
    merchant_id: account,
    account_reference: bank.code,
  });
}
