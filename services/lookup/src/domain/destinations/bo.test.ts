import { describe, expect, it } from "vitest";
import { validateBoDestination } from "./bo.js";
import type { DestinationRequest } from "./destination-request.js";

const base: DestinationRequest = {
  country_code: "BO",
  destination: "4012345678",
  field: "payment_destination",
  code: "1",
  account_type: "SAVINGS",
  recipient: { name_first: "Juan", name_last: "Pérez Mamani", ic_number: "1234567" },
};
const request = (overrides: Partial<DestinationRequest>): DestinationRequest => ({ ...base, ...overrides });

describe("validateBoDestination", () => {
  it("accepts a Mercantil savings account of 10 digits with a CI", () => {
    expect(validateBoDestination(base)).toEqual({
      ok: true,
      value: {
        destination_type: "BO_ACCOUNT",
        payment_destination: "4012345678",
        payment_destination_code: "1",
        institution_name: "Banco Mercantil Santa Cruz",
        account_type: "SAVINGS",
        recipient: {
          name_first: "Juan",
          name_last: "Pérez Mamani",
          name: "Juan Pérez Mamani",
          ic_number: "1234567",
          ic_type: "CI",
        },
      },
    });
  });

  it.each<[string, Partial<DestinationRequest>, Record<string, unknown>]>([
    [
      "Unión checking account of 14 digits",
      { code: "6", destination: "10000012345678", account_type: "CHECKING" },
      { payment_destination_code: "6", institution_name: "Banco Unión", account_type: "CHECKING" },
    ],
    ["bank code with a leading zero", { code: "01" }, { payment_destination_code: "1" }],
    ["lower-case account type", { account_type: "checking" }, { account_type: "CHECKING" }],
    ["grouped account digits", { destination: "401-234 5678" }, { payment_destination: "4012345678" }],
    [
      "BISA (BIC) with 12 digits",
      { code: "banibolx", destination: "123456789012" },
      { payment_destination_code: "BANIBOLX" },
    ],
    [
      "BCP with 6 digits",
      { code: "BCPLBOLX", destination: "123456" },
      { institution_name: "Banco de Crédito de Bolivia" },
    ],
  ])("accepts %s", (_label, overrides, expected) => {
    const result = validateBoDestination(request(overrides));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).toMatchObject(expected);
  });

  it.each<[string, string, Record<string, string>]>([
    ["1234567 LP", "department extension", { ic_number: "1234567", ic_type: "CI", ic_extension: "LP" }],
    ["1234567-1A", "complement", { ic_number: "1234567", ic_complement: "1A" }],
    ["1234567 SC 1A", "both", { ic_number: "1234567", ic_extension: "SC", ic_complement: "1A" }],
    ["E-1234567", "foreigner (CE)", { ic_number: "E-1234567", ic_type: "CE" }],
    ["e1234567", "foreigner without hyphen", { ic_number: "E-1234567", ic_type: "CE" }],
    ["12345", "5 digits", { ic_number: "12345" }],
    ["12345678", "8 digits", { ic_number: "12345678" }],
  ])("reads CI %s (%s)", (ic, _label, expected) => {
    const result = validateBoDestination(request({ recipient: { ...base.recipient, ic_number: ic } }));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.recipient).toMatchObject(expected);
  });

  it.each<[string, Partial<DestinationRequest>, string, string]>([
    ["unknown bank", { code: "99" }, "INVALID_DESTINATION_CODE", "payment_destination_code"],
    ["no bank code", { code: undefined }, "INVALID_DESTINATION_CODE", "payment_destination_code"],
    ["missing account type", { account_type: undefined }, "MISSING_REQUIRED_FIELD", "account_type"],
    ["unknown account type", { account_type: "CURRENT" }, "INVALID_FIELD", "account_type"],
    ["missing recipient", { recipient: undefined }, "MISSING_REQUIRED_FIELD", "recipient"],
    [
      "missing first name",
      { recipient: { name_last: "Pérez", ic_number: "1234567" } },
      "MISSING_REQUIRED_FIELD",
      "recipient.name_first",
    ],
    [
      "missing last name",
      { recipient: { name_first: "Juan", ic_number: "1234567" } },
      "MISSING_REQUIRED_FIELD",
      "recipient.name_last",
    ],
    [
      "missing CI",
      { recipient: { name_first: "Juan", name_last: "Pérez" } },
      "MISSING_REQUIRED_FIELD",
      "recipient.ic_number",
    ],
    [
      "digits in a name",
      { recipient: { ...base.recipient, name_first: "Juan2" } },
      "INVALID_FIELD",
      "recipient.name_first",
    ],
    [
      "CI of 11 digits",
      { recipient: { ...base.recipient, ic_number: "12345678901" } },
      "INVALID_FIELD",
      "recipient.ic_number",
    ],
    [
      "CI of 4 digits",
      { recipient: { ...base.recipient, ic_number: "1234" } },
      "INVALID_FIELD",
      "recipient.ic_number",
    ],
    [
      "CI with letters",
      { recipient: { ...base.recipient, ic_number: "12AB567" } },
      "INVALID_FIELD",
      "recipient.ic_number",
    ],
    [
      "Mercantil account of 9 digits",
      { destination: "401234567" },
      "INVALID_DESTINATION",
      "payment_destination",
    ],
    [
      "account of 17 digits",
      { code: "BANIBOLX", destination: "12345678901234567" },
      "INVALID_DESTINATION",
      "payment_destination",
    ],
    ["account with letters", { destination: "40123A5678" }, "INVALID_DESTINATION", "payment_destination"],
  ])("refuses %s", (_label, overrides, code, field) => {
    const result = validateBoDestination(request(overrides));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code, field });
  });

  it("says how many digits the bank expects", () => {
    const result = validateBoDestination(request({ destination: "401234567" }));
    expect(!result.ok && result.error.message).toBe(
      "Invalid account number: Banco Mercantil Santa Cruz account numbers have 10 digits",
    );
  });

  it("checks the account type before the recipient and the recipient before the account", () => {
    const everythingWrong = request({ account_type: undefined, recipient: undefined, destination: "1" });
    expect(
      !validateBoDestination(everythingWrong).ok && validateBoDestination(everythingWrong),
    ).toMatchObject({
      error: { field: "account_type" },
    });
    const noRecipient = request({ recipient: undefined, destination: "1" });
    expect(validateBoDestination(noRecipient)).toMatchObject({ error: { field: "recipient" } });
  });
});
