import { Dec, INTERNAL_SCALE } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { applyFees, NO_FEES, parseFeePercent, parseFeeSchedule, parseFixedFeeUsd } from "./fees.js";

const schedule = (percent: string, fixedUsd: string) => ({
  percent: new Dec(percent),
  fixedUsd: new Dec(fixedUsd),
});

describe("applyFees", () => {
  it.each([
    // amount_usd, percent, fixed, percentage_fee, fee, total_usd
    ["20", "1.5", "0.30", "0.3", "0.6", "20.6"],
    ["0.2", "1.5", "0", "0.003", "0.003", "0.203"],
    ["1000", "0", "0.30", "0", "0.3", "1000.3"],
    [
      "33.333333333333333333",
      "1",
      "0",
      "0.333333333333333333",
      "0.333333333333333333",
      "33.666666666666666666",
    ],
    [
      "0.000000000000000001",
      "50",
      "0",
      "0.000000000000000001",
      "0.000000000000000001",
      "0.000000000000000002",
    ],
  ])("%s USD at %s %% + %s", (amountUsd, percent, fixedUsd, percentageFee, fee, total) => {
    const result = applyFees(new Dec(amountUsd), schedule(percent, fixedUsd));
    expect(result.amountUsd.eq(amountUsd)).toBe(true);
    expect(result.percentageFee.toFixed()).toBe(percentageFee);
    expect(result.fixedFee.eq(fixedUsd)).toBe(true);
    expect(result.fee.toFixed()).toBe(fee);
    expect(result.totalUsd.toFixed()).toBe(total);
  });

  it("keeps total_usd equal to amount_usd + percentage_fee + fixed_fee, every part within the stored scale", () => {
    const result = applyFees(new Dec("123.456789012345678901"), schedule("2.75", "0.3"));
    const sum = result.amountUsd.plus(result.percentageFee).plus(result.fixedFee);
    expect(result.totalUsd.eq(sum)).toBe(true);
    expect(result.percentageFee.dp()).toBeLessThanOrEqual(INTERNAL_SCALE);
  });

  it("charges nothing without a schedule", () => {
    const result = applyFees(new Dec("50"), NO_FEES);
    expect(result.fee.isZero()).toBe(true);
    expect(result.totalUsd.eq(50)).toBe(true);
  });
});

describe("parseFeeSchedule", () => {
  it("accepts strings and numbers", () => {
    const parsed = parseFeeSchedule({ percent: "1.5", fixed_usd: 0.3 });
    expect(parsed.ok && parsed.value.percent.eq("1.5") && parsed.value.fixedUsd.eq("0.3")).toBe(true);
  });

  it.each([
    [{ percent: "-1", fixed_usd: "0" }, "fees.percent"],
    [{ percent: "100", fixed_usd: "0" }, "fees.percent"],
    [{ percent: "abc", fixed_usd: "0" }, "fees.percent"],
    [{ percent: undefined, fixed_usd: "0" }, "fees.percent"],
    [{ percent: "1", fixed_usd: "-0.01" }, "fees.fixed_usd"],
    [{ percent: "1", fixed_usd: `0.${"0".repeat(18)}1` }, "fees.fixed_usd"],
    [{ percent: "1", fixed_usd: null }, "fees.fixed_usd"],
  ])("rejects %j at %s", (input, field) => {
    const parsed = parseFeeSchedule(input);
    expect(parsed.ok ? undefined : parsed.error).toMatchObject({ code: "INVALID_FIELD", field });
  });
});

describe("parseFeePercent and parseFixedFeeUsd", () => {
  it("read each half of a schedule on its own, for partial updates", () => {
    const percent = parseFeePercent("2.25");
    const fixedUsd = parseFixedFeeUsd(0);
    expect(percent.ok && percent.value.toFixed()).toBe("2.25");
    expect(fixedUsd.ok && fixedUsd.value.toFixed()).toBe("0");
  });

  it.each([
    [parseFeePercent, "100", "fees.percent"],
    [parseFeePercent, "", "fees.percent"],
    [parseFixedFeeUsd, "-1", "fees.fixed_usd"],
    [parseFixedFeeUsd, "", "fees.fixed_usd"],
  ])("%o refuses %j at %s", (parse, input, field) => {
    const parsed = parse(input);
    expect(parsed.ok ? undefined : parsed.error).toMatchObject({ code: "INVALID_FIELD", field });
  });
});
