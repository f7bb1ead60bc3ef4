import { describe, expect, it } from "vitest";
import { cbuBlockCheckDigit, cbuCheckDigits, checkCbu, isCvu } from "./cbu.js";

describe("checkCbu", () => {
  it.each([
    ["0110012920000091344977", "CBU Banco Nación (ezu-com-ar README)"],
    ["0170099220000067797370", "CBU 017 (cbu-tools)"],
    ["0720001400000123456784", "CBU 072 built by hand from the algorithm"],
    ["0720009000000000010070", "edge case with DV1 = DV2 = 0"],
    ["0000003100062244154712", "CVU PSP 0003"],
    ["0000076500000123456784", "CVU PSP 0076"],
  ])("accepts %s (%s)", (value) => {
    expect(checkCbu(value)).toEqual({ valid: true });
  });

  it.each([
    ["0110012920000091344978", "second check digit (position 22) should be 7"],
    ["0110012820000091344977", "first check digit (position 8) should be 9"],
    ["011001292000009134497", "a CBU/CVU has 22 digits, got 21"],
    ["01100129200000913449A7", "a CBU/CVU has digits only"],
    ["", "a CBU/CVU has digits only"],
  ])("refuses %s: %s", (value, reason) => {
    expect(checkCbu(value)).toEqual({ valid: false, reason });
  });
});

describe("cbuCheckDigits", () => {
  it("yields 0 rather than 10 when a block sum is a multiple of 10", () => {
    expect(cbuCheckDigits("0720009000000000010070")).toEqual({ dv1: 0, dv2: 0 });
  });

  it("computes the block-1 digit of Banco Nación branch 0012", () => {
    expect(cbuBlockCheckDigit("0110012", [7, 1, 3, 9, 7, 1, 3])).toBe(9);
  });
});

describe("isCvu", () => {
  it.each([
    ["0000003100062244154712", true],
    ["0110012920000091344977", false],
  ])("%s -> %s", (value, expected) => {
    expect(isCvu(value)).toBe(expected);
  });
});
