import { describe, expect, it } from "vitest";
import { validateGhDestination } from "./gh.js";

const request = (code: string | undefined, destination: string) =>
  ({ country_code: "GH", destination, field: "payment_destination", code }) as const;

describe("validateGhDestination: mobile money", () => {
  it.each([
    ["MTN", "0241234567", "+233241234567", "MTN"],
    ["MTN", "0551234567", "+233551234567", "MTN"],
    ["TELECEL", "0501234567", "+233501234567", "TELECEL"],
    ["VODAFONE", "0501234567", "+233501234567", "TELECEL"],
    ["vodafone", "0201234567", "+233201234567", "TELECEL"],
    ["AIRTELTIGO", "0271234567", "+233271234567", "AIRTELTIGO"],
    ["AIRTELTIGO", "+233261234567", "+233261234567", "AIRTELTIGO"],
    ["TIGO", "233 57 123 4567", "+233571234567", "AIRTELTIGO"],
    ["MTN", "024-123-4567", "+233241234567", "MTN"],
  ])("accepts %s / %s", (code, input, canonical, network) => {
    const result = validateGhDestination(request(code, input));
    expect(result).toMatchObject({
      ok: true,
      value: {
        destination_type: "GH_MOMO",
        payment_destination: canonical,
        payment_destination_code: network,
      },
    });
    expect(result.ok && result.value.warnings).toBeUndefined();
  });

  it("accepts a number whose prefix belongs to another network, with a warning and a suggestion", () => {
    const result = validateGhDestination(request("TELECEL", "0241234567"));
    expect(result).toEqual({
      ok: true,
      value: {
        destination_type: "GH_MOMO",
        payment_destination: "+233241234567",
        payment_destination_code: "TELECEL",
        institution_name: "Telecel Cash (ex-Vodafone Cash)",
        warnings: [
          {
            code: "NETWORK_PREFIX_MISMATCH",
            message:
              "Prefix 024 was first assigned to MTN, not TELECEL; accepted because numbers are portable between networks",
            field: "payment_destination_code",
          },
        ],
        suggested_values: { payment_destination_code: "MTN" },
      },
    });
  });

  it.each([
    ["0301234567", "Invalid mobile-money number: a Ghanaian mobile number"],
    ["024123456", "Invalid mobile-money number: a Ghanaian mobile number"],
    ["02412345678", "Invalid mobile-money number: a Ghanaian mobile number"],
    ["0251234567", "Invalid mobile-money number: a Ghanaian mobile number"],
    ["0231234567", "prefix 023 is not an MTN, Telecel or AirtelTigo number"],
    ["0281234567", "prefix 028 is not an MTN, Telecel or AirtelTigo number"],
    ["+234241234567", "Invalid mobile-money number"],
    ["241234567", "Invalid mobile-money number"],
  ])("refuses MTN wallet %s (%s)", (input, message) => {
    const result = validateGhDestination(request("MTN", input));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "INVALID_DESTINATION", field: "payment_destination" });
    expect(result.error.message).toContain(message);
  });
});

describe("validateGhDestination: bank accounts", () => {
  it.each([
    ["28", "0031625807099", "Access Bank Ghana"],
    ["13", "12345678", "Ecobank Ghana"],
    ["04", "1234567890123456", "GCB Bank"],
    ["4", "1234567890123", "GCB Bank"],
    ["02", "0241234567", "Standard Chartered Bank Ghana"],
  ])("accepts bank %s / %s", (code, account, name) => {
    expect(validateGhDestination(request(code, account))).toMatchObject({
      ok: true,
      value: { destination_type: "GH_BANK_ACCOUNT", payment_destination: account, institution_name: name },
    });
  });

  it.each([["1234567"], ["12345678901234567"], ["00316258A7099"]])("refuses account %s", (account) => {
    expect(validateGhDestination(request("28", account))).toMatchObject({
      ok: false,
      error: {
        code: "INVALID_DESTINATION",
        field: "payment_destination",
        message: expect.stringContaining("8 to 16 digits"),
      },
    });
  });

  it.each([["030"], ["07"], ["GLO"], ["VOD"], [undefined]])("refuses institution code %s", (code) => {
    expect(validateGhDestination(request(code, "0031625807099"))).toMatchObject({
      ok: false,
      error: { code: "INVALID_DESTINATION_CODE", field: "payment_destination_code" },
    });
  });
});
