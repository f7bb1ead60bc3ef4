import type { Bank } from "../institutions/bank.js";
import {
  findGhBank,
  findGhMomoNetwork,
  type GhMomoNetwork,
  ghNetworkByPrefix,
} from "../institutions/gh-institutions.js";
import { type DomainWarning, fail, ok, type Result } from "../types.js";
import { compactAccountNumber } from "./account-number.js";
import { type CountryDestination, type DestinationRequest, unknownCode } from "./destination-request.js";
import { parsePhoneInput } from "./phone-input.js";

/**
 * Ghana: bank accounts (by 2-digit GhIPSS bank code) and mobile-money wallets (by network). The code
 * decides which one the destination is. Since numbers are portable, a wallet whose prefix belongs to
 * another network is accepted with a warning, never refused.
 */

const INVALID = "INVALID_DESTINATION";
/** No national account format exists; lengths seen run from 13 to 16 digits, so 8–16 is the lenient range. */
const ACCOUNT_DIGITS = { min: 8, max: 16 };
/** libphonenumber's Ghana mobile pattern for the 9-digit national significant number. */
const MOBILE_NSN = /^(?:2(?:[0346-9]\d|5[67])|5(?:[03-7]\d|9[1-9]))\d{6}$/;

export function validateGhDestination(req: DestinationRequest): Result<CountryDestination> {
  const code = req.code ?? "";
  const network = findGhMomoNetwork(code);
  if (network !== undefined) return momoWallet(req, network);
  const bank = findGhBank(/^\d$/.test(code) ? `0${code}` : code);
  if (bank !== undefined) return bankAccount(req, bank);
  return unknownCode(
    "Unknown Ghanaian institution: send a 2-digit bank code or MTN, TELECEL or AIRTELTIGO (see GET /listBanks?country_code=GH)",
  );
}

function bankAccount(req: DestinationRequest, bank: Bank): Result<CountryDestination> {
  const account = compactAccountNumber(req.destination);
  const { min, max } = ACCOUNT_DIGITS;
  if (!/^\d+$/.test(account) || account.length < min || account.length > max) {
    return fail(INVALID, `Invalid bank account number: ${min} to ${max} digits expected`, req.field);
  }
  return ok({
    destination_type: "GH_BANK_ACCOUNT",
    payment_destination: account,
    payment_destination_code: bank.code,
    institution_name: bank.name,
  });
}

function momoWallet(req: DestinationRequest, network: GhMomoNetwork): Result<CountryDestination> {
  const nsn = nationalSignificantNumber(req.destination);
  if (nsn === undefined || !MOBILE_NSN.test(nsn)) {
    return fail(
      INVALID,
      "Invalid mobile-money number: a Ghanaian mobile number, 0XXXXXXXXX or +233XXXXXXXXX",
      req.field,
    );
  }
  const prefixNetwork = ghNetworkByPrefix(`0${nsn}`);
  if (prefixNetwork === undefined) {
    return fail(
      INVALID,
      `Invalid mobile-money number: prefix 0${nsn.slice(0, 2)} is not an MTN, Telecel or AirtelTigo number`,
      req.field,
    );
  }
  const destination: CountryDestination = {
    destination_type: "GH_MOMO",
    payment_destination: `+233${nsn}`,
    payment_destination_code: network.code,
    institution_name: network.name,
  };
  if (prefixNetwork.code === network.code) return ok(destination);
  return ok({
    ...destination,
    warnings: [prefixMismatch(nsn, network, prefixNetwork)],
    suggested_values: { payment_destination_code: prefixNetwork.code },
  });
}

function prefixMismatch(nsn: string, stated: GhMomoNetwork, byPrefix: GhMomoNetwork): DomainWarning {
  return {
    code: "NETWORK_PREFIX_MISMATCH",
    message: `Prefix 0${nsn.slice(0, 2)} was first assigned to ${byPrefix.code}, not ${stated.code}; accepted because numbers are portable between networks`,
    field: "payment_destination_code",
  };
}

/** The 9 digits after +233 (or after the trunk 0). */
function nationalSignificantNumber(raw: string): string | undefined {
  const phone = parsePhoneInput(raw);
  if (phone === undefined) return undefined;
  const { digits, international } = phone;
  if (international || (digits.length === 12 && digits.startsWith("233"))) {
    return digits.startsWith("233") && digits.length === 12 ? digits.slice(3) : undefined;
  }
  if (digits.length === 10 && digits.startsWith("0")) return digits.slice(1);
  return undefined;
}
