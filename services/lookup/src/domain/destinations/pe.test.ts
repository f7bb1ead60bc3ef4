import { describe, expect, it } from "vitest";
import { validatePeDestination } from "./pe.js";

const request = (destination: string, code = "YAPE") =>
  ({ country_code: "PE", destination, field: "payment_destination", code }) as const;

describe("validatePeDestination", () => {
  it.each([
    ["912345678", "YAPE", "+51912345678", "Yape"],
    ["+51987654321", "PLIN", "+51987654321", "Plin"],
    ["+51 987 654 321", "YAPE", "+51987654321", "Yape"],
    ["51987654321", "PLIN", "+51987654321", "Plin"],
    ["987-654-321", "YAPE", "+51987654321", "Yape"],
  ])("accepts %s with %s", (input, code, canonical, institution) => {
    expect(validatePeDestination(request(input, code))).toEqual({
      ok: true,
      value: {
        destination_type: "PE_MOBILE",
        payment_destination: canonical,
        payment_destination_code: code,
        institution_name: institution,
      },
    });
  });

  it.each([
    ["812345678", "starts with 9"],
    ["91234567", "has 9 digits"],
    ["9123456789", "has 9 digits"],
    ["014123456", "starts with 9"],
    ["+52987654321", "country code must be +51"],
    ["+5198765432", "has 9 digits"],
    ["yape:987654321", "digits only"],
  ])("refuses %s (%s)", (input, message) => {
    const result = validatePeDestination(request(input));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "INVALID_DESTINATION", field: "payment_destination" });
    expect(result.error.message).toContain(message);
  });
});
