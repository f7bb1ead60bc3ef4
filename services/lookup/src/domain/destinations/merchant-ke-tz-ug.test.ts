import { describe, expect, it } from "vitest";
import type { DestinationRequest } from "./destination-request.js";
import { validateMerchantDestination } from "./merchant-ke-tz-ug.js";

const request = (overrides: Partial<DestinationRequest>): DestinationRequest => ({
  country_code: "KE",
  destination: "123456",
  field: "merchant_id",
  ...overrides,
});

describe("validateMerchantDestination", () => {
  it("reads a number without code or reference as a till", () => {
    expect(validateMerchantDestination(request({}))).toEqual({
      ok: true,
      value: {
        destination_type: "TILL",
        payment_destination: "123456",
        payment_destination_code: "TILL",
        institution_name: "Till number",
        is_business: true,
        is_dynamic: true,
        merchant_id: "123456",
        payment_type: "till",
        merchant_info: {
          merchant_id: "123456",
          display_name: "",
          country_code: "KE",
          payment_type: "till",
          lipa_number: "123456",
        },
      },
    });
  });

  it("reads a number with a reference as a paybill, and carries the reference", () => {
    const result = validateMerchantDestination(
      request({ destination: "444174", account_reference: "INV12345" }),
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        destination_type: "PAYBILL",
        payment_type: "paybill",
        account_reference: "INV12345",
        merchant_info: { payment_type: "paybill", account_reference: "INV12345", merchant_id: "444174" },
      },
    });
  });

  it.each<[string, Partial<DestinationRequest>, string]>([
    ["explicit TILL", { code: "TILL" }, "TILL"],
    [
      "explicit PAYBILL",
      { code: "PAYBILL", destination: "444174", account_reference: "ABCDEFGHIJKL" },
      "PAYBILL",
    ],
    ["KE 5-digit till", { destination: "12345" }, "TILL"],
    ["KE 7-digit paybill", { code: "PAYBILL", destination: "1234567", account_reference: "A1" }, "PAYBILL"],
    ["TZ 8-digit Lipa Namba", { country_code: "TZ", destination: "12345678" }, "TILL"],
    [
      "UG 6-digit MoMo Pay code",
      { country_code: "UG", destination: "123456", field: "payment_destination" },
      "TILL",
    ],
    ["grouped digits", { destination: "123 456" }, "TILL"],
  ])("accepts %s", (_label, overrides, type) => {
    expect(validateMerchantDestination(request(overrides))).toMatchObject({
      ok: true,
      value: { destination_type: type },
    });
  });

  it.each<[string, Partial<DestinationRequest>, string, string]>([
    [
      "paybill without reference",
      { code: "PAYBILL", destination: "444174" },
      "MISSING_REQUIRED_FIELD",
      "account_reference",
    ],
    [
      "reference of 15 characters",
      { destination: "123456", account_reference: "ABCDEFGHIJKLMNO" },
      "INVALID_FIELD",
      "account_reference",
    ],
    [
      "reference with a hyphen",
      { destination: "123456", account_reference: "INV-1" },
      "INVALID_FIELD",
      "account_reference",
    ],
    [
      "till with a reference",
      { code: "TILL", destination: "123456", account_reference: "X" },
      "INVALID_FIELD",
      "account_reference",
    ],
    ["KE till of 4 digits", { destination: "1234" }, "INVALID_DESTINATION", "merchant_id"],
    ["KE till of 8 digits", { destination: "12345678" }, "INVALID_DESTINATION", "merchant_id"],
    [
      "TZ number of 9 digits",
      { country_code: "TZ", destination: "123456789" },
      "INVALID_DESTINATION",
      "merchant_id",
    ],
    [
      "UG number with letters",
      { country_code: "UG", destination: "12A456", field: "payment_destination" },
      "INVALID_DESTINATION",
      "payment_destination",
    ],
    ["phone number as a till", { destination: "+254712345678" }, "INVALID_DESTINATION", "merchant_id"],
  ])("refuses %s", (_label, overrides, code, field) => {
    expect(validateMerchantDestination(request(overrides))).toMatchObject({
      ok: false,
      error: { code, field },
    });
  });
});
