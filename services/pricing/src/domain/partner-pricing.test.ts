import { describe, expect, it } from "vitest";
import {
  defaultPartnerPricing,
  MAX_SUPPORTED_CURRENCIES,
  parseSupportedCurrencies,
} from "./partner-pricing.js";

describe("parseSupportedCurrencies", () => {
  it.each([
    [[], []],
    [
      ["usd", "BRL"],
      ["USD", "BRL"],
    ],
    [
      ["BRL", "brl", "USD", "BRL"],
      ["BRL", "USD"],
    ],
    [
      ["VND", "UGX", "KWD"],
      ["VND", "UGX", "KWD"],
    ],
  ])("reads %j as %j", (input, expected) => {
    const parsed = parseSupportedCurrencies(input);
    expect(parsed.ok ? parsed.value : parsed.error).toEqual(expected);
  });

  it.each([
    [["BRL", "XYZ"]],
    [["XAU"]],
    [[""]],
    [["BR"]],
    [["HRK"]],
    [Array(MAX_SUPPORTED_CURRENCIES + 1).fill("USD")],
  ])("refuses %j", (input) => {
    const parsed = parseSupportedCurrencies(input);
    expect(parsed.ok ? undefined : parsed.error).toMatchObject({
      code: "INVALID_FIELD",
      field: "supported_currencies",
    });
  });
});

describe("defaultPartnerPricing", () => {
  it("supports no currencies and charges no fees", () => {
    const pricing = defaultPartnerPricing("ptr_1");
    expect(pricing.supportedCurrencies).toEqual([]);
    expect(pricing.fees.percent.isZero() && pricing.fees.fixedUsd.isZero()).toBe(true);
  });
});
