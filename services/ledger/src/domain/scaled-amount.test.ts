import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalDecimal, decOf, formatScaled, parseScaled, scaledOf } from "./scaled-amount.js";

describe("scaled amounts", () => {
  it("write the text toDecimalString writes: negative, zero, many decimals, trailing zeros, large", () => {
    for (const text of [
      "0",
      "-0",
      "0.000000000000000000",
      "-0.000",
      "7",
      "-7",
      "12.50",
      "-12.500000000000000000",
      "0.000000000000000001",
      "-0.000000000000000001",
      "0.1",
      "94.549999999999999999",
      "-10.450000000000000001",
      "100000000.000000000000000000",
      "99999999999999999999.999999999999999999",
      "-99999999999999999999.999999999999999999",
      "1000000000000000000000000000000",
    ]) {
      expect(formatScaled(parseScaled(text)), text).toBe(toDecimalString(new Dec(text)));
      expect(canonicalDecimal(text), text).toBe(toDecimalString(new Dec(text)));
      expect(decOf(parseScaled(text)).eq(new Dec(text)), text).toBe(true);
    }
  });

  it("write any scaled value as toDecimalString writes the decimal it stands for", () => {
    const limit = 10n ** 38n;
    fc.assert(
      fc.property(fc.bigInt({ min: -limit, max: limit }), fc.nat({ max: 18 }), (raw, zeros) => {
        // Values with trailing zeros (whole amounts, cents) as often as arbitrary ones.
        const value = (raw / 10n ** BigInt(zeros)) * 10n ** BigInt(zeros);
        expect(formatScaled(value)).toBe(toDecimalString(new Dec(`${value}e-18`)));
      }),
      { numRuns: 2000 },
    );
  });

  it("add exactly where binary floating point would not", () => {
    const sum = ["0.1", "0.2", "-0.000000000000000001"].map(parseScaled).reduce((a, b) => a + b, 0n);
    expect(formatScaled(sum)).toBe("0.299999999999999999");
    expect(formatScaled(parseScaled("0.3") - parseScaled("0.3"))).toBe("0");
  });

  it("round-trip decimals of up to 18 places", () => {
    const value = new Dec("-123.456000000000000789");
    expect(scaledOf(value)).toBe(-123456000000000000789n);
    expect(decOf(scaledOf(value)).eq(value)).toBe(true);
  });

  it("refuse text that is not a plain decimal, or more decimals than the scale holds", () => {
    for (const bad of ["", "1e5", " 1", "1.", ".5", "+1", "0x10", "1,5", "NaN", "0.0000000000000000001"]) {
      expect(() => parseScaled(bad), bad).toThrow(RangeError);
    }
    expect(parseScaled("0.1000000000000000000000")).toBe(10n ** 17n);
  });
});
