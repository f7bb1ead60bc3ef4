import { describe, expect, it } from "vitest";
import { validateZmDestination } from "./zm.js";

const request = (code: string | undefined, destination: string) =>
  ({ country_code: "ZM", destination, field: "payment_destination", code }) as const;

describe("validateZmDestination", () => {
  it.each([
    ["ZNCOZMLU", "0020756300173", "Zambia National Commercial Bank (Zanaco)"],
    ["zncozmlu", "0020756300173", "Zambia National Commercial Bank (Zanaco)"],
    ["SBICZMLX", "12345678", "Stanbic Bank Zambia"],
    ["AZAMZMLU", "0971234567", "Access Bank Zambia"],
    ["NSCBZML1", "0761234567890", "National Savings and Credit Bank"],
  ])("accepts %s / %s", (code, account, name) => {
    const result = validateZmDestination(request(code, account));
    expect(result).toEqual({
      ok: true,
      value: {
        destination_type: "ZM_BANK_ACCOUNT",
        payment_destination: account,
        payment_destination_code: code.toUpperCase(),
        institution_name: name,
      },
    });
  });

  it("maps the legacy Atlas Mara code to Access Bank Zambia, with a warning", () => {
    const result = validateZmDestination(request("Atlas Mara", "0020756300173"));
    expect(result).toMatchObject({
      ok: true,
      value: {
        payment_destination_code: "AZAMZMLU",
        institution_name: "Access Bank Zambia",
        warnings: [{ code: "LEGACY_BANK_CODE", field: "payment_destination_code" }],
        suggested_values: { payment_destination_code: "AZAMZMLU" },
      },
    });
  });

  it.each([["MTN"], ["airtel"], ["ZAMTEL"]])("refuses mobile-money network %s", (code) => {
    expect(validateZmDestination(request(code, "0971234567"))).toMatchObject({
      ok: false,
      error: {
        code: "INVALID_DESTINATION_CODE",
        field: "payment_destination_code",
        message: expect.stringContaining("bank accounts only"),
      },
    });
  });

  it.each([["ATLAS"], ["BARCZMLX"], [undefined]])("refuses unknown bank %s", (code) => {
    expect(validateZmDestination(request(code, "0020756300173"))).toMatchObject({
      ok: false,
      error: { code: "INVALID_DESTINATION_CODE", field: "payment_destination_code" },
    });
  });

  it.each([
    ["+260961234567", "Phone numbers are not accepted"],
    ["+260 97 123 4567", "Phone numbers are not accepted"],
    ["1234567", "8 to 16 digits"],
    ["12345678901234567", "8 to 16 digits"],
    ["00207563O0173", "8 to 16 digits"],
  ])("refuses account %s (%s)", (account, message) => {
    const result = validateZmDestination(request("ZNCOZMLU", account));
    expect(result).toMatchObject({
      ok: false,
      error: { code: "INVALID_DESTINATION", field: "payment_destination" },
    });
    expect(!result.ok && result.error.message).toContain(message);
  });
});
