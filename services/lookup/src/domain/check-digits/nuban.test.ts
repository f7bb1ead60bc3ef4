import { describe, expect, it } from "vitest";
import { checkNuban, nubanCheckDigit, nubanInstitutionCode } from "./nuban.js";

describe("checkNuban", () => {
  it.each([
    ["011", "0000014579", "First Bank, CBN worked example"],
    ["058", "0000000018", "GTBank"],
    ["058", "0123456785", "GTBank"],
    ["044", "1234567895", "Access"],
    ["057", "1012345671", "Zenith"],
    ["033", "2087654323", "UBA"],
    ["011", "3012345671", "First Bank"],
    ["50211", "1234567897", "Kuda (950211)"],
    ["50211", "2000000006", "Kuda (950211)"],
    ["50515", "1234567896", "Moniepoint (950515)"],
  ])("accepts %s / %s (%s)", (code, account) => {
    expect(checkNuban(code, account)).toEqual({ valid: true });
  });

  it.each([
    ["058", "1234567895", "check digit (last digit) should be 6 for this bank"],
    ["058", "0000000019", "check digit (last digit) should be 8 for this bank"],
    ["044", "123456789", "a NUBAN account number has 10 digits"],
    ["044", "12345678901", "a NUBAN account number has 10 digits"],
    ["044", "12345678A5", "a NUBAN account number has 10 digits"],
  ])("refuses %s / %s: %s", (code, account, reason) => {
    expect(checkNuban(code, account)).toEqual({ valid: false, reason });
  });
});

describe("nubanInstitutionCode", () => {
  it.each([
    ["011", "000011"],
    ["232", "000232"],
    ["50547", "950547"],
  ])("%s -> %s", (cbn, code) => {
    expect(nubanInstitutionCode(cbn)).toBe(code);
  });

  it("refuses a 6-digit NIP code, which is not a CBN code", () => {
    expect(() => nubanInstitutionCode("000014")).toThrow(RangeError);
  });
});

describe("nubanCheckDigit", () => {
  it("reproduces the CBN example: 011 + 000001457 gives S = 81, check digit 9", () => {
    expect(nubanCheckDigit("000011", "000001457")).toBe(9);
  });
});
