import { describe, expect, it } from "vitest";
import type { DestinationRequest } from "./destination-request.js";
import { validateVnDestination } from "./vn.js";

const request = (overrides: Partial<DestinationRequest>): DestinationRequest => ({
  country_code: "VN",
  destination: "0011001234567",
  field: "merchant_id",
  account_reference: "970436",
  ...overrides,
});

describe("validateVnDestination", () => {
  it("accepts a Vietcombank account", () => {
    expect(validateVnDestination(request({}))).toEqual({
      ok: true,
      value: {
        destination_type: "VN_ACCOUNT",
        payment_destination: "0011001234567",
        payment_destination_code: "970436",
        institution_name: "Vietcombank",
        merchant_id: "0011001234567",
        account_reference: "970436",
      },
    });
  });

  it.each<[string, Partial<DestinationRequest>, string]>([
    [
      "19-digit card-style number",
      { destination: "9704180012345678901", account_reference: "970418" },
      "BIDV",
    ],
    ["6-digit account", { destination: "123456", account_reference: "970422" }, "MB Bank"],
    ["e-wallet BIN", { destination: "0912345678", account_reference: "971025" }, "MoMo"],
  ])("accepts %s", (_label, overrides, bank) => {
    expect(validateVnDestination(request(overrides))).toMatchObject({
      ok: true,
      value: { institution_name: bank },
    });
  });

  it.each<[string, Partial<DestinationRequest>, string, string]>([
    ["missing BIN", { account_reference: undefined }, "MISSING_REQUIRED_FIELD", "account_reference"],
    [
      "BIN only in the code",
      { account_reference: undefined, code: "970415" },
      "MISSING_REQUIRED_FIELD",
      "account_reference",
    ],
    ["5-digit BIN", { account_reference: "97043" }, "INVALID_FIELD", "account_reference"],
    ["unknown BIN", { account_reference: "999999" }, "INVALID_DESTINATION_CODE", "account_reference"],
    ["20-digit account", { destination: "12345678901234567890" }, "INVALID_DESTINATION", "merchant_id"],
    ["5-digit account", { destination: "12345" }, "INVALID_DESTINATION", "merchant_id"],
    ["account with letters", { destination: "00110A1234567" }, "INVALID_DESTINATION", "merchant_id"],
  ])("refuses %s", (_label, overrides, code, field) => {
    expect(validateVnDestination(request(overrides))).toMatchObject({ ok: false, error: { code, field } });
  });
});
