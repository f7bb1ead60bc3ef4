import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { parseCorridor } from "./corridor.js";
import { parseFixedFeeUsd } from "./fees.js";
import { parseRatePerUsd } from "./fx-rates.js";
import { fitsStoredScale } from "./stored-decimal.js";

describe("fitsStoredScale", () => {
  it.each([
    ["0", true],
    ["99999999999999999999.999999999999999999", true],
    ["-99999999999999999999", true],
    ["100000000000000000000", false],
    ["0.000000000000000001", true],
    ["0.0000000000000000001", false],
  ])("%s fits NUMERIC(38,18): %s", (value, fits) => {
    expect(fitsStoredScale(new Dec(value))).toBe(fits);
  });

  it("is what rates, corridor limits and fixed fees are checked against", () => {
    const tooBig = "100000000000000000000";
    expect(parseRatePerUsd(tooBig).ok).toBe(false);
    expect(parseFixedFeeUsd(tooBig).ok).toBe(false);
    expect(
      parseCorridor({
        countryCode: "BR",
        currency: "BRL",
        minAmount: "0",
        maxAmount: tooBig,
        enabled: true,
      }).ok,
    ).toBe(false);
  });
});
