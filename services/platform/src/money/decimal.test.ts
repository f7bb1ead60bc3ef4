import { describe, expect, it } from "vitest";
import { Dec, INTERNAL_SCALE, parseDecimal, toDecimalString, toInternalScale } from "./decimal.js";

describe("Dec", () => {
  it("keeps at least 40 significant digits and rounds half-up", () => {
    expect(new Dec(1).div(3).toString()).toBe(`0.${"3".repeat(40)}`);
    expect(new Dec("2.5").toDecimalPlaces(0).toString()).toBe("3");
    expect(new Dec("-2.5").toDecimalPlaces(0).toString()).toBe("-3");
    expect(new Dec("0.125").toDecimalPlaces(2).toString()).toBe("0.13");
  });

  it("adds decimal fractions exactly, unlike binary floating point", () => {
    expect(new Dec("0.1").plus("0.2").eq("0.3")).toBe(true);
  });

  it("stores at a documented scale of at least 12 decimals", () => {
    expect(INTERNAL_SCALE).toBeGreaterThanOrEqual(12);
    expect(toDecimalString(toInternalScale(new Dec(20).div(3)))).toBe("6.666666666666666667");
  });
});

describe("parseDecimal", () => {
  it.each([
    [12.5, "12.5"],
    [0.1, "0.1"],
    [-3, "-3"],
    [0, "0"],
    [-0, "0"],
    [1e21, "1000000000000000000000"],
    [1e-7, "0.0000001"],
    ["12.50", "12.5"],
    ["0.000000000000000001", "0.000000000000000001"],
    ["-7", "-7"],
    ["-0.0", "0"],
    ["007.10", "7.1"],
    ["123456789012345678901234567890.123456789", "123456789012345678901234567890.123456789"],
  ])("accepts %j as %s", (input, expected) => {
    const parsed = parseDecimal(input);
    expect(parsed).toBeDefined();
    expect(toDecimalString(parsed!)).toBe(expected);
  });

  it.each([
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    "",
    " ",
    " 1",
    "1 ",
    "+1",
    "1.",
    ".5",
    "1e5",
    "1E-5",
    "0x10",
    "1,5",
    "1_000",
    "NaN",
    "Infinity",
    "abc",
    "--1",
    "1".repeat(65),
    null,
    undefined,
    true,
    {},
    [1],
  ])("rejects %j", (input) => {
    expect(parseDecimal(input)).toBeUndefined();
  });

  it("rejects a bigint, which JSON never produces", () => {
    expect(parseDecimal(10n)).toBeUndefined();
  });
});

describe("toDecimalString", () => {
  it.each([
    ["1.500", "1.5"],
    ["100", "100"],
    ["1e-30", "0.000000000000000000000000000001"],
    ["1e30", "1000000000000000000000000000000"],
    ["-0", "0"],
    ["-12.3400", "-12.34"],
  ])("writes %s as %s", (input, expected) => {
    expect(toDecimalString(new Dec(input))).toBe(expected);
  });

  it("refuses non-finite values", () => {
    expect(() => toDecimalString(new Dec(Number.NaN))).toThrow(RangeError);
    expect(() => toDecimalString(new Dec(Number.POSITIVE_INFINITY))).toThrow(RangeError);
  });
});
