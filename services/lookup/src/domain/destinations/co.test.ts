import { describe, expect, it } from "vitest";
import { validateCoDestination } from "./co.js";

const request = (destination: string) =>
  ({ country_code: "CO", destination, field: "payment_destination", code: "BREB" }) as const;

describe("validateCoDestination", () => {
  it.each([
    ["3001234567", "BREB_MOBILE", "+573001234567"],
    ["+573151234567", "BREB_MOBILE", "+573151234567"],
    ["+57 315 123 4567", "BREB_MOBILE", "+573151234567"],
    ["573151234567", "BREB_MOBILE", "+573151234567"],
    ["@tienda123", "BREB_ALIAS", "@tienda123"],
    [`@${"a".repeat(19)}`, "BREB_ALIAS", `@${"a".repeat(19)}`],
    ["1004922993", "BREB_ID", "1004922993"],
    ["52123456", "BREB_ID", "52123456"],
    ["31234567", "BREB_ID", "31234567"],
    ["123456", "BREB_ID", "123456"],
    ["1.004.922.993", "BREB_ID", "1004922993"],
    ["900123456", "BREB_ID", "900123456"],
    ["8909039388", "BREB_ID", "8909039388"],
    ["890.903.938-8", "BREB_ID", "8909039388"],
    ["pagos@example.com", "BREB_EMAIL", "pagos@example.com"],
    ["Pagos@Example.COM", "BREB_EMAIL", "pagos@example.com"],
  ])("accepts %s as %s", (input, type, canonical) => {
    expect(validateCoDestination(request(input))).toEqual({
      ok: true,
      value: {
        destination_type: type,
        payment_destination: canonical,
        payment_destination_code: "BREB",
        institution_name: "Bre-B",
      },
    });
  });

  it.each([
    ["2001234567", "cédula (6–8 digits, or 10 digits starting with 1)"],
    ["300123456", "a mobile number has 10 digits starting with 3"],
    ["30012345678", "a mobile number has 10 digits starting with 3"],
    ["tienda123", "an alias starts with @"],
    [`@${"a".repeat(20)}`, "at most 19 characters after @"],
    ["@tienda_123", "only letters and digits after @"],
    ["@", "only letters and digits after @"],
    ["+5213001234567", "Colombian numbers (+57)"],
    ["+572001234567", "a mobile number has 10 digits starting with 3"],
    ["12345", "an ID is a cédula"],
    ["123456789", "an ID is a cédula"],
    ["8909039381", "NIT check digit should be 8"],
    ["pagos@@example.com", "not an e-mail address"],
    ["pagos example", "expected a mobile number, an ID number, an e-mail or an @alias"],
  ])("refuses %s (%s)", (input, message) => {
    const result = validateCoDestination(request(input));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "INVALID_DESTINATION", field: "payment_destination" });
    expect(result.error.message).toContain(message);
  });
});
