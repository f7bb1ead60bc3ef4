import { checkNuban } from "../check-digits/nuban.js";
import { findNgInstitution, type NgInstitution } from "../institutions/ng-institutions.js";
import { fail, ok, type Result } from "../types.js";
import { compactAccountNumber } from "./account-number.js";
import { type CountryDestination, type DestinationRequest, unknownCode } from "./destination-request.js";
import { type PhoneInput, parsePhoneInput } from "./phone-input.js";

/**
 * Nigeria: NUBAN accounts at banks (check digit enforced with the institution's CBN code) and 10-digit
 * wallet numbers at wallet institutions (OPay, PalmPay, Moniepoint, …), which are usually the holder's
 * phone number without the leading 0 and carry no NUBAN check digit. The institution code may be the
 * NIP code or the CBN code; the canonical code returned is the NIP code.
 */

const INVALID = "INVALID_DESTINATION";

export function validateNgDestination(req: DestinationRequest): Result<CountryDestination> {
  const institution = findNgInstitution(req.code ?? "");
  if (institution === undefined) {
    return unknownCode(
      "Unknown Nigerian institution code: send the NIP code (6 digits) or CBN code from GET /listBanks?country_code=NG",
    );
  }
  const account =
    institution.type === "mobile_money" ? walletNumber(req.destination) : nuban(req.destination, institution);
  if (typeof account !== "string") return fail(INVALID, account.problem, req.field);
  return ok({
    destination_type: institution.type === "mobile_money" ? "NG_WALLET" : "NUBAN",
    payment_destination: account,
    payment_destination_code: institution.code,
    institution_name: institution.name,
  });
}

function nuban(raw: string, institution: NgInstitution): string | { problem: string } {
  const account = compactAccountNumber(raw);
  if (institution.cbnCode === undefined)
    return /^\d{10}$/.test(account) ? account : { problem: "Invalid account number: 10 digits expected" };
  const outcome = checkNuban(institution.cbnCode, account);
  return outcome.valid ? account : { problem: `Invalid NUBAN for ${institution.name}: ${outcome.reason}` };
}

/** 10 digits, also accepted as the phone number it usually is: 0XXXXXXXXXX or +234XXXXXXXXXX. */
function walletNumber(raw: string): string | { problem: string } {
  const phone = parsePhoneInput(raw);
  const wallet = phone === undefined ? undefined : withoutPhonePrefix(phone);
  return wallet !== undefined && /^\d{10}$/.test(wallet)
    ? wallet
    : { problem: "Invalid wallet number: 10 digits (the phone number without its leading 0)" };
}

function withoutPhonePrefix({ digits, international }: PhoneInput): string | undefined {
  if (international) return digits.startsWith("234") ? digits.slice(3) : undefined;
  if (digits.length === 11 && digits.startsWith("0")) return digits.slice(1);
  if (digits.length === 13 && digits.startsWith("234")) return digits.slice(3);
  return digits;
}
