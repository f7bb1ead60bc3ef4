import { currencyByCode } from "@payouts/platform/money/currencies";
import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { parseCorridor } from "./domain/corridor.js";
import { parseFeeSchedule } from "./domain/fees.js";
import { parseRatePerUsd } from "./domain/fx-rates.js";
import { previewQuotations } from "./domain/preview.js";
import {
  SANDBOX_CORRIDORS,
  SANDBOX_FEES,
  SANDBOX_FX_RATES,
  SANDBOX_SUPPORTED_CURRENCIES,
} from "./sandbox-defaults.js";

// The corridor countries and their ISO 4217 currencies.
const EXPECTED: Record<string, string> = {
  AR: "ARS",
  BR: "BRL",
  PE: "PEN",
  BO: "BOB",
  CO: "COP",
  NG: "NGN",
  GH: "GHS",
  ZM: "ZMW",
  KE: "KES",
  TZ: "TZS",
  UG: "UGX",
  VN: "VND",
};

describe("sandbox seed data", () => {
  it("covers every corridor country with its currency", () => {
    expect(Object.fromEntries(SANDBOX_CORRIDORS.map((c) => [c.countryCode, c.currency]))).toEqual(EXPECTED);
    expect(SANDBOX_FX_RATES.map((r) => r.currency).sort()).toEqual(Object.values(EXPECTED).sort());
    expect(SANDBOX_SUPPORTED_CURRENCIES).toEqual(["USD", ...Object.values(EXPECTED)]);
  });

  it.each(SANDBOX_CORRIDORS)("$countryCode passes the admin validation with sensible limits", (seed) => {
    const rate = parseRatePerUsd(seed.ratePerUsd);
    const corridor = parseCorridor({
      countryCode: seed.countryCode,
      currency: seed.currency,
      minAmount: seed.minAmount,
      maxAmount: seed.maxAmount,
      enabled: true,
    });
    expect(rate.ok && corridor.ok).toBe(true);
    if (rate.ok && corridor.ok) {
      expect(corridor.value.minAmount.div(rate.value).lte(10)).toBe(true);
      expect(corridor.value.maxAmount.div(rate.value).gte(1000)).toBe(true);
      expect(corridor.value.minAmount.dp()).toBeLessThanOrEqual(
        currencyByCode(seed.currency)?.minorUnits ?? 0,
      );
    }
  });

  it("prices a 100 USD preview in every seeded currency", () => {
    const fees = parseFeeSchedule(SANDBOX_FEES);
    if (!fees.ok) {
      throw new Error(fees.error.message);
    }
    const result = previewQuotations({
      amount: new Dec(100),
      currency: "USD",
      rates: new Map(SANDBOX_FX_RATES.map((r) => [r.currency, new Dec(r.ratePerUsd)])),
      supportedCurrencies: SANDBOX_SUPPORTED_CURRENCIES,
      corridorsByCurrency: new Map(
        SANDBOX_CORRIDORS.map((c) => [
          c.currency,
          { ...c, minAmount: new Dec(c.minAmount), maxAmount: new Dec(c.maxAmount), enabled: true },
        ]),
      ),
      fees: fees.value,
      now: new Date(0),
    });
    expect(result.ok && result.value.map((q) => q.currency)).toEqual(SANDBOX_SUPPORTED_CURRENCIES);
    expect(result.ok && result.value.every((q) => q.totalUsd.eq("101.8"))).toBe(true);
  });
});
