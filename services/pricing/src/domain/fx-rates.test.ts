import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { isPriceableCurrency, parsePriceableCurrency, parseRatePerUsd, ratePerUsd } from "./fx-rates.js";

describe("ratePerUsd", () => {
  const rates = new Map([
    ["BRL", new Dec("5.4")],
    ["USD", new Dec("2")],
    ["ARS", new Dec(0)],
  ]);

  it("is 1 for USD whatever is configured", () => {
    expect(ratePerUsd("USD", rates)?.eq(1)).toBe(true);
    expect(ratePerUsd("USD", new Map())?.eq(1)).toBe(true);
  });

  it("returns a configured positive rate and nothing otherwise", () => {
    expect(ratePerUsd("BRL", rates)?.eq("5.4")).toBe(true);
    expect(ratePerUsd("ARS", rates)).toBeUndefined();
    expect(ratePerUsd("EUR", rates)).toBeUndefined();
  });
});

describe("parseRatePerUsd", () => {
  it.each([["5.4"], [1450], ["0.000001"]])("accepts %j", (input) => {
    expect(parseRatePerUsd(input).ok).toBe(true);
  });

  it.each([["0"], [-1], ["abc"], [null], [`1.${"0".repeat(18)}1`]])("rejects %j", (input) => {
    const parsed = parseRatePerUsd(input);
    expect(parsed.ok ? undefined : parsed.error).toMatchObject({
      code: "INVALID_FIELD",
      field: "rate_per_usd",
    });
  });
});

describe("parsePriceableCurrency", () => {
  it.each([
    ["brl", "BRL"],
    ["USD", "USD"],
    ["vnd", "VND"],
  ])("reads %j as %s", (input, expected) => {
    const parsed = parsePriceableCurrency(input, "currency");
    expect(parsed.ok && parsed.value).toBe(expected);
  });

  it.each(["XAU", "XXX", "ZZZ", "", "BR", 12, null])("refuses %j", (input) => {
    const parsed = parsePriceableCurrency(input, "currency");
    expect(parsed.ok ? undefined : parsed.error).toMatchObject({ code: "INVALID_FIELD", field: "currency" });
    expect(typeof input === "string" && isPriceableCurrency(input.toUpperCase())).toBe(false);
  });
});
