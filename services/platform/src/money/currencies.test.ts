import { describe, expect, it } from "vitest";
import {
  currencyByCode,
  currencyByNumeric,
  fitsMinorUnits,
  ISO_CURRENCIES,
  isIsoCurrency,
  minorUnits,
} from "./currencies.js";
import { Dec } from "./decimal.js";

// The corridor currencies, verified against ISO 4217 data.
const CORRIDOR_CURRENCIES: readonly [string, string, number][] = [
  ["ARS", "032", 2],
  ["BRL", "986", 2],
  ["PEN", "604", 2],
  ["BOB", "068", 2],
  ["COP", "170", 2],
  ["NGN", "566", 2],
  ["GHS", "936", 2],
  ["ZMW", "967", 2],
  ["KES", "404", 2],
  ["TZS", "834", 2],
  ["UGX", "800", 0],
  ["VND", "704", 0],
  ["USD", "840", 2],
];

describe("ISO 4217 table", () => {
  it.each(CORRIDOR_CURRENCIES)("%s has numeric %s and %i minor units", (code, numeric, units) => {
    expect(isIsoCurrency(code)).toBe(true);
    expect(minorUnits(code)).toBe(units);
    expect(currencyByNumeric(numeric)?.code).toBe(code);
    expect(currencyByCode(code)?.numeric).toBe(numeric);
  });

  it("holds the full active list with unique, well-formed codes", () => {
    expect(ISO_CURRENCIES.length).toBeGreaterThanOrEqual(175);
    expect(new Set(ISO_CURRENCIES.map((c) => c.code)).size).toBe(ISO_CURRENCIES.length);
    expect(new Set(ISO_CURRENCIES.map((c) => c.numeric)).size).toBe(ISO_CURRENCIES.length);
    for (const currency of ISO_CURRENCIES) {
      expect(currency.code).toMatch(/^[A-Z]{3}$/);
      expect(currency.numeric).toMatch(/^\d{3}$/);
      expect([null, 0, 2, 3, 4]).toContain(currency.minorUnits);
    }
  });

  it.each([
    ["JPY", 0],
    ["KWD", 3],
    ["CLF", 4],
    ["EUR", 2],
    ["XOF", 0],
  ])("knows non-corridor minor units: %s = %i", (code, units) => {
    expect(minorUnits(code)).toBe(units);
  });

  it("accepts N.A. codes as valid but without minor units", () => {
    expect(isIsoCurrency("XAU")).toBe(true);
    expect(currencyByCode("XAU")?.minorUnits).toBeNull();
    expect(minorUnits("XAU")).toBeUndefined();
  });

  it.each(["brl", "BR", "BRLX", "", "HRK", "ZWL", "SLL", "ANG", "BGN", "CUC", "ABC"])(
    "rejects %j (lower case, malformed or withdrawn)",
    (code) => {
      expect(isIsoCurrency(code)).toBe(false);
      expect(minorUnits(code)).toBeUndefined();
    },
  );

  it("looks numeric codes up only in their three-digit form", () => {
    expect(currencyByNumeric("068")?.code).toBe("BOB");
    expect(currencyByNumeric("68")).toBeUndefined();
    expect(currencyByNumeric("000")).toBeUndefined();
  });
});

describe("fitsMinorUnits", () => {
  it.each([
    ["100.12", "BRL", true],
    ["100.120", "BRL", true],
    ["100.123", "BRL", false],
    ["1.001", "USD", false],
    ["100", "VND", true],
    ["100.5", "VND", false],
    ["1.234", "KWD", true],
    ["1.2345", "KWD", false],
    ["1.23456", "XAU", true],
  ])("%s %s → %s", (amount, code, fits) => {
    expect(fitsMinorUnits(new Dec(amount), code)).toBe(fits);
  });
});
