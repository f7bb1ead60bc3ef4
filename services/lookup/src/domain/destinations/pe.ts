import { fail, ok, type Result } from "../types.js";
import type { CountryDestination, DestinationRequest } from "./destination-request.js";
import { parsePhoneInput } from "./phone-input.js";

/**
 * Peru: Yape and Plin wallets, addressed by mobile number (+51 and 9 digits starting with 9). The
 * number does not say which wallet holds it, so the wallet comes from payment_destination_code.
 */

const INVALID = "INVALID_DESTINATION";
export const PE_WALLETS: Readonly<Record<string, string>> = { YAPE: "Yape", PLIN: "Plin" };

export function validatePeDestination(req: DestinationRequest): Result<CountryDestination> {
  const national = peruvianNationalNumber(req.destination);
  if (typeof national !== "string")
    return fail(INVALID, `Invalid Peruvian mobile number: ${national.problem}`, req.field);
  const code = req.code ?? "";
  return ok({
    destination_type: "PE_MOBILE",
    payment_destination: `+51${national}`,
    payment_destination_code: code,
    institution_name: PE_WALLETS[code] ?? "",
  });
}

/** The 9-digit national number, from "912345678", "+51 912 345 678" or "51912345678". */
function peruvianNationalNumber(raw: string): string | { problem: string } {
  const phone = parsePhoneInput(raw);
  if (phone === undefined) return { problem: "digits only, optionally with +51" };
  const { digits, international } = phone;
  if (international && !digits.startsWith("51")) return { problem: "the country code must be +51" };
  // 11 digits starting with 51 cannot be a national number (those have 9), so read them as +51.
  const national =
    international || (digits.length === 11 && digits.startsWith("51")) ? digits.slice(2) : digits;
  if (national.length !== 9) return { problem: "a mobile number has 9 digits" };
  if (!national.startsWith("9"))
    return { problem: "a mobile number starts with 9 (landlines cannot hold a wallet)" };
  return national;
}
