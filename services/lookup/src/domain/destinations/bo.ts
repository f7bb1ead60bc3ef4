import { type BoBank, findBoBank } from "../institutions/bo-banks.js";
import { fail, ok, type Recipient, type Result } from "../types.js";
import { compactAccountNumber } from "./account-number.js";
import {
  type CountryDestination,
  type DestinationRequest,
  type RecipientInput,
  unknownCode,
} from "./destination-request.js";

/**
 * Bolivia: ACH bank transfers. No name enquiry exists, so the partner sends the account type and the
 * holder's name and identity card (CI). Checked in request order: bank code, account type, recipient,
 * then the account number (whose length depends on the bank).
 */

const ACCOUNT_TYPES = ["SAVINGS", "CHECKING"] as const;
type AccountType = (typeof ACCOUNT_TYPES)[number];
const NAME_PATTERN = /^[\p{L}\p{M}][\p{L}\p{M} .'-]*$/u;
const MAX_NAME_LENGTH = 60;
/** A CI is 5–8 digits; foreigners' cards (CE) carry "E-". Department extension and SEGIP complement are kept apart. */
const CI_PATTERN =
  /^(?<foreign>E-?)?(?<number>\d+)(?:[ -](?<extension>LP|CB|SC|OR|PT|CH|TJ|BE|BN|PD))?(?:[ -](?<complement>[0-9A-Z]{1,2}))?$/;
const CI_DIGITS = { min: 5, max: 8 };

export function validateBoDestination(req: DestinationRequest): Result<CountryDestination> {
  const bank = findBoBank(req.code ?? "");
  if (bank === undefined) {
    return unknownCode("Unknown Bolivian bank code: see GET /listBanks?country_code=BO");
  }
  const accountType = parseAccountType(req.account_type);
  if (!accountType.ok) return accountType;
  const recipient = parseRecipient(req.recipient);
  if (!recipient.ok) return recipient;
  const account = parseAccount(req.destination, bank, req.field);
  if (!account.ok) return account;
  return ok({
    destination_type: "BO_ACCOUNT",
    payment_destination: account.value,
    payment_destination_code: bank.code,
    institution_name: bank.name,
    account_type: accountType.value,
    recipient: recipient.value,
  });
}

function parseAccountType(raw: string | undefined): Result<AccountType> {
  if (raw === undefined)
    return fail(
      "MISSING_REQUIRED_FIELD",
      "account_type is required for Bolivian bank transfers",
      "account_type",
    );
  const upper = raw.toUpperCase();
  const found = ACCOUNT_TYPES.find((type) => type === upper);
  return found === undefined
    ? fail(
        "INVALID_FIELD",
        "account_type must be SAVINGS (caja de ahorro) or CHECKING (cuenta corriente)",
        "account_type",
      )
    : ok(found);
}

function parseRecipient(input: RecipientInput | undefined): Result<Recipient> {
  if (input === undefined) {
    return fail(
      "MISSING_REQUIRED_FIELD",
      "recipient (name_first, name_last, ic_number) is required for Bolivian bank transfers",
      "recipient",
    );
  }
  const first = parseName(input.name_first, "recipient.name_first");
  if (!first.ok) return first;
  const last = parseName(input.name_last, "recipient.name_last");
  if (!last.ok) return last;
  const ci = parseCi(input.ic_number);
  if (!ci.ok) return ci;
  return ok({
    name_first: first.value,
    name_last: last.value,
    name: `${first.value} ${last.value}`,
    ...ci.value,
  });
}

function parseName(raw: string | undefined, field: string): Result<string> {
  if (raw === undefined) return fail("MISSING_REQUIRED_FIELD", `${field} is required`, field);
  const name = raw.replace(/\s+/g, " ");
  if (name.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(name)) {
    return fail(
      "INVALID_FIELD",
      `${field} must be letters (spaces, '.', ''' and '-' allowed), at most ${MAX_NAME_LENGTH} characters`,
      field,
    );
  }
  return ok(name);
}

/** Parses "1234567", "1234567 LP", "1234567-1A" or "E-1234567" into the recipient's identity keys. */
function parseCi(raw: string | undefined): Result<Recipient> {
  const field = "recipient.ic_number";
  if (raw === undefined) return fail("MISSING_REQUIRED_FIELD", `${field} is required`, field);
  const groups = CI_PATTERN.exec(raw.toUpperCase().replace(/\s+/g, " "))?.groups;
  const number = groups?.number ?? "";
  if (groups === undefined || number.length < CI_DIGITS.min || number.length > CI_DIGITS.max) {
    return fail(
      "INVALID_FIELD",
      `${field} must be a CI of ${CI_DIGITS.min} to ${CI_DIGITS.max} digits ("E-" first for foreigners), optionally followed by the department (e.g. LP) and complement`,
      field,
    );
  }
  const foreign = groups.foreign !== undefined;
  return ok({
    ic_number: foreign ? `E-${number}` : number,
    ic_type: foreign ? "CE" : "CI",
    ...(groups.extension === undefined ? {} : { ic_extension: groups.extension }),
    ...(groups.complement === undefined ? {} : { ic_complement: groups.complement }),
  });
}

function parseAccount(raw: string, bank: BoBank, field: string): Result<string> {
  const account = compactAccountNumber(raw);
  const { min, max } = bank.accountDigits;
  if (/^\d+$/.test(account) && account.length >= min && account.length <= max) return ok(account);
  const length = min === max ? `${min} digits` : `${min} to ${max} digits`;
  return fail(
    "INVALID_DESTINATION",
    `Invalid account number: ${bank.name} account numbers have ${length}`,
    field,
  );
}
