import { describe, expect, it } from "vitest";
import { CORRIDORS, findCorridor } from "./corridors.js";

describe("CORRIDORS", () => {
  it.each([
    ["AR", "ARS", "payment_key", ["manual"]],
    ["BR", "BRL", "payment_key", ["manual"]],
    ["CO", "COP", "payment_key", ["manual"]],
    ["PE", "PEN", "ewallet", ["manual"]],
    ["BO", "BOB", "bank_transfer", ["manual"]],
    ["NG", "NGN", "bank_transfer", ["manual"]],
    ["GH", "GHS", "bank_transfer", ["manual"]],
    ["ZM", "ZMW", "bank_transfer", ["manual"]],
    ["KE", "KES", "payment_key", ["manual", "merchant"]],
    ["TZ", "TZS", "payment_key", ["manual", "merchant"]],
    ["UG", "UGX", "payment_key", ["manual"]],
    ["VN", "VND", "bank_transfer", ["merchant"]],
  ])("%s pays out in %s by %s (%j)", (country, currency, method, contracts) => {
    expect(findCorridor(country)).toMatchObject({ currency, payment_method: method, contracts });
  });

  it("lists each country once", () => {
    const countries = CORRIDORS.map((row) => row.country_code);
    expect(new Set(countries).size).toBe(countries.length);
    expect(countries).toHaveLength(12);
  });

  it.each([
    ["UG", 0],
    ["VN", 0],
    ["KE", 2],
    ["COP", undefined],
  ])("minor units of %s", (country, units) => {
    expect(findCorridor(country)?.minor_units).toBe(units);
  });

  it.each([
    ["BR", { kind: "fixed", required: true, codes: ["PIX"] }],
    ["CO", { kind: "fixed", required: true, codes: ["BREB"] }],
    ["PE", { kind: "fixed", required: true, codes: ["YAPE", "PLIN"] }],
    ["KE", { kind: "fixed", required: false, codes: ["TILL", "PAYBILL"] }],
    ["BO", { kind: "institution" }],
    ["AR", { kind: "none" }],
    ["VN", { kind: "none" }],
  ])("destination code rule of %s", (country, rule) => {
    expect(findCorridor(country)?.destination_code).toEqual(rule);
  });

  it.each([
    ["BO", true],
    ["NG", true],
    ["VN", true],
    ["BR", false],
    ["KE", false],
  ])("%s destinations are institution-addressed: %s", (country, expected) => {
    expect(findCorridor(country)?.institution_addressed).toBe(expected);
  });
});

describe("findCorridor", () => {
  it("matches case-insensitively", () => {
    expect(findCorridor("ar")?.country_code).toBe("AR");
  });

  it.each([["US"], ["MX"], [""], ["ARG"]])("has no corridor for %j", (code) => {
    expect(findCorridor(code)).toBeUndefined();
  });
});
