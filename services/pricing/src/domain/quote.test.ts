import { Dec, INTERNAL_SCALE } from "@payouts/platform/money/decimal";
import { local, rate, usd } from "@payouts/platform/money/json-decimal";
import { describe, expect, it } from "vitest";
import { type PricedAmount, priceLocalAmount } from "./quote.js";

const fees = (percent: string, fixedUsd: string) => ({
  percent: new Dec(percent),
  fixedUsd: new Dec(fixedUsd),
});

function render(priced: PricedAmount, dp: number) {
  return {
    amount: local(priced.amount, priced.currency).text,
    exchange_rate: rate(priced.exchangeRate).text,
    amount_usd: usd(priced.amountUsd, dp).text,
    percentage_fee: usd(priced.percentageFee, dp).text,
    fixed_fee: usd(priced.fixedFee, dp).text,
    fee: usd(priced.fee, dp).text,
    total_usd: usd(priced.totalUsd, dp).text,
  };
}

describe("priceLocalAmount", () => {
  it("prices 100 BRL at 5.0 per USD with 1.5 % + 0.30 exactly", () => {
    const priced = priceLocalAmount({
      amount: new Dec(100),
      currency: "BRL",
      ratePerUsd: new Dec("5.0"),
      fees: fees("1.5", "0.30"),
    });
    expect(priced.currency).toBe("BRL");
    expect(priced.amountUsd.toFixed()).toBe("20");
    expect(priced.percentageFee.toFixed()).toBe("0.3");
    expect(priced.fixedFee.toFixed()).toBe("0.3");
    expect(priced.fee.toFixed()).toBe("0.6");
    expect(priced.totalUsd.toFixed()).toBe("20.6");
    expect(render(priced, 2)).toEqual({
      amount: "100.00",
      exchange_rate: "5.0000000000",
      amount_usd: "20.00",
      percentage_fee: "0.30",
      fixed_fee: "0.30",
      fee: "0.60",
      total_usd: "20.60",
    });
  });

  it("rounds a sub-cent fee to 0.00 at dp 2 while the full-precision total stays exact", () => {
    const priced = priceLocalAmount({
      amount: new Dec(1),
      currency: "BRL",
      ratePerUsd: new Dec(5),
      fees: fees("1.5", "0"),
    });
    expect(priced.fee.toFixed()).toBe("0.003");
    expect(priced.totalUsd.toFixed()).toBe("0.203");
    expect(render(priced, 2)).toMatchObject({ percentage_fee: "0.00", fee: "0.00", total_usd: "0.20" });
    expect(render(priced, 10)).toMatchObject({ fee: "0.0030000000", total_usd: "0.2030000000" });
    expect(render(priced, 0)).toMatchObject({ amount_usd: "0", fee: "0", total_usd: "0" });
  });

  it("rounds half-up at .5 in every rendered field", () => {
    // 2.5 USD at 5 % → 0.125, which is 0.13 at dp 2; 2.5 itself is 3 at dp 0.
    const priced = priceLocalAmount({
      amount: new Dec("2.5"),
      currency: "USD",
      ratePerUsd: new Dec(1),
      fees: fees("5", "0"),
    });
    expect(priced.percentageFee.toFixed()).toBe("0.125");
    expect(render(priced, 0)).toMatchObject({ amount_usd: "3", percentage_fee: "0", total_usd: "3" });
    expect(render(priced, 2)).toMatchObject({
      amount_usd: "2.50",
      percentage_fee: "0.13",
      total_usd: "2.63",
    });
  });

  it("divides at full precision, stores at INTERNAL_SCALE and rounds only when rendered", () => {
    const priced = priceLocalAmount({
      amount: new Dec(100),
      currency: "PEN",
      ratePerUsd: new Dec(3),
      fees: fees("1", "0.3"),
    });
    expect(priced.amountUsd.toFixed()).toBe("33.333333333333333333");
    expect(priced.amountUsd.dp()).toBe(INTERNAL_SCALE);
    expect(priced.totalUsd.eq(priced.amountUsd.plus(priced.percentageFee).plus(priced.fixedFee))).toBe(true);
    expect(render(priced, 2)).toMatchObject({
      amount_usd: "33.33",
      percentage_fee: "0.33",
      fee: "0.63",
      total_usd: "33.97",
    });
  });

  it("renders 0-dp currencies without decimals and keeps a 10 dp exchange rate", () => {
    const priced = priceLocalAmount({
      amount: new Dec("1000000.5"),
      currency: "VND",
      ratePerUsd: new Dec("26300.123456789012"),
      fees: fees("0", "0"),
    });
    expect(render(priced, 2)).toMatchObject({
      amount: "1000001",
      exchange_rate: "26300.1234567890",
      amount_usd: "38.02",
    });
  });

  it.each(["0", "-5"])("refuses a rate of %s", (ratePerUsd) => {
    expect(() =>
      priceLocalAmount({
        amount: new Dec(1),
        currency: "BRL",
        ratePerUsd: new Dec(ratePerUsd),
        fees: fees("0", "0"),
      }),
    ).toThrow(RangeError);
  });
});
