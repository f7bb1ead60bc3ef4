import { Dec, INTERNAL_SCALE } from "@payouts/platform/money/decimal";
import { usd } from "@payouts/platform/money/json-decimal";
import { describe, expect, it } from "vitest";
import { type BindingQuoteRequest, DEFAULT_QUOTE_TTL_MS, quoteCorridorPayout } from "./binding-quote.js";
import type { Corridor } from "./corridor.js";

const NOW = new Date("2025-11-20T12:00:00.000Z");
const BR: Corridor = {
  countryCode: "BR",
  currency: "BRL",
  minAmount: new Dec(1),
  maxAmount: new Dec(50000),
  enabled: true,
};
const RATES = new Map([
  ["BRL", new Dec("5.4")],
  ["EUR", new Dec("0.9")],
]);

function request(overrides: Partial<BindingQuoteRequest> = {}): BindingQuoteRequest {
  return {
    amount: "540",
    currency: "",
    countryCode: "BR",
    corridor: BR,
    rates: RATES,
    fees: { percent: new Dec("1.5"), fixedUsd: new Dec("0.30") },
    now: NOW,
    ttlMs: DEFAULT_QUOTE_TTL_MS,
    ...overrides,
  };
}

describe("quoteCorridorPayout", () => {
  it("prices 540 BRL at 5.4 per USD with 1.5 % + 0.30, expiring after the TTL", () => {
    const result = quoteCorridorPayout(request());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const quote = result.value;
    expect(quote.currency).toBe("BRL");
    expect(quote.amount.toFixed()).toBe("540");
    expect(quote.exchangeRate.toFixed()).toBe("5.4");
    expect(quote.amountUsd.toFixed()).toBe("100");
    expect(quote.percentageFee.toFixed()).toBe("1.5");
    expect(quote.fixedFee.toFixed()).toBe("0.3");
    expect(quote.fee.toFixed()).toBe("1.8");
    expect(quote.totalUsd.toFixed()).toBe("101.8");
    expect(quote.expiresAt.toISOString()).toBe("2025-11-20T12:30:00.000Z");
  });

  it("accepts the corridor currency in any case and honours a custom TTL", () => {
    const result = quoteCorridorPayout(request({ currency: "brl", ttlMs: 60_000 }));
    expect(result.ok && result.value.expiresAt.toISOString()).toBe("2025-11-20T12:01:00.000Z");
  });

  it("converts an amount given in another currency into the corridor currency", () => {
    const fromUsd = quoteCorridorPayout(request({ amount: "100", currency: "USD" }));
    expect(fromUsd.ok && [fromUsd.value.amount.toFixed(), fromUsd.value.amountUsd.toFixed()]).toEqual([
      "540",
      "100",
    ]);
    const fromEur = quoteCorridorPayout(request({ amount: "90", currency: "EUR" }));
    expect(fromEur.ok && [fromEur.value.amount.toFixed(), fromEur.value.currency]).toEqual(["540", "BRL"]);
  });

  it("keeps a converted local amount at the stored scale", () => {
    const exact = quoteCorridorPayout(request({ amount: "1", currency: "EUR" }));
    expect(exact.ok && exact.value.amount.toFixed()).toBe("6");
    const rates = new Map([...RATES, ["EUR", new Dec(7)]]);
    const inexact = quoteCorridorPayout(request({ amount: "10", currency: "EUR", rates }));
    expect(inexact.ok && inexact.value.amount.toFixed()).toBe("7.714285714285714286");
  });

  it.each([
    [{ amount: "0" }, "INVALID_AMOUNT", "amount"],
    [{ amount: "-5" }, "INVALID_AMOUNT", "amount"],
    [{ amount: "abc" }, "INVALID_AMOUNT", "amount"],
    [{ amount: "" }, "INVALID_AMOUNT", "amount"],
    [{ amount: `1.${"1".repeat(19)}` }, "INVALID_AMOUNT", "amount"],
    [{ corridor: undefined }, "UNSUPPORTED_COUNTRY", "country_code"],
    [{ corridor: { ...BR, enabled: false } }, "UNSUPPORTED_COUNTRY", "country_code"],
    [{ currency: "XYZ" }, "INVALID_CURRENCY", "currency"],
    [{ currency: "XAU" }, "INVALID_CURRENCY", "currency"],
    [{ currency: "GBP" }, "INVALID_CURRENCY", "currency"],
    [{ rates: new Map() }, "INVALID_CURRENCY", "currency"],
    [{ amount: "0.99" }, "AMOUNT_OUT_OF_RANGE", "amount"],
    [{ amount: "50000.01" }, "AMOUNT_OUT_OF_RANGE", "amount"],
    [{ amount: "10000", currency: "USD" }, "AMOUNT_OUT_OF_RANGE", "amount"],
  ])("refuses %j with %s", (overrides, code, field) => {
    const result = quoteCorridorPayout(request(overrides));
    expect(result.ok ? undefined : result.error).toMatchObject({ code, field });
  });

  it("checks the amount before the country, and the country before the currency", () => {
    const badAll = quoteCorridorPayout(request({ amount: "0", corridor: undefined, currency: "XYZ" }));
    expect(badAll.ok ? undefined : badAll.error.code).toBe("INVALID_AMOUNT");
    const badCountry = quoteCorridorPayout(request({ corridor: undefined, currency: "XYZ" }));
    expect(badCountry.ok ? undefined : badCountry.error.code).toBe("UNSUPPORTED_COUNTRY");
  });

  it.each([
    [{ amount: "100.123" }, "BRL has 2 minor units"],
    [{ amount: "10.005", currency: "USD" }, "USD has 2"],
    [{ amount: "100.5", currency: "JPY", rates: new Map([...RATES, ["JPY", new Dec(150)]]) }, "JPY has 0"],
  ])(
    "refuses %j with INVALID_AMOUNT: an input amount finer than its currency's minor unit (%s)",
    (overrides, _why) => {
      const result = quoteCorridorPayout(request(overrides));
      expect(result.ok ? undefined : result.error).toMatchObject({ code: "INVALID_AMOUNT", field: "amount" });
    },
  );

  it("accepts trailing zeros beyond the minor units, and judges the input currency, not the converted amount", () => {
    expect(quoteCorridorPayout(request({ amount: "100.1200" })).ok).toBe(true);
    const rates = new Map([...RATES, ["EUR", new Dec(7)]]);
    const converted = quoteCorridorPayout(request({ amount: "10.01", currency: "EUR", rates }));
    expect(converted.ok && converted.value.amount.decimalPlaces()).toBeGreaterThan(2);
  });

  it.each(["1", "50000"])("accepts the inclusive limit %s", (amount) => {
    expect(quoteCorridorPayout(request({ amount })).ok).toBe(true);
  });
});

/** Deterministic PRNG (mulberry32) so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A decimal string built from random integers: `digits` before the point, `scale` after. */
function randomDecimal(next: () => number, digits: number, scale: number): string {
  const int = String(Math.floor(next() * 10 ** digits) + 1);
  const frac = Array.from({ length: scale }, () => Math.floor(next() * 10)).join("");
  return scale === 0 ? int : `${int}.${frac}`;
}

describe("quoteCorridorPayout, property: totals are exact and only rendering rounds", () => {
  it("holds total_usd = amount_usd + percentage_fee + fixed_fee at full precision for 500 random quotes", () => {
    const next = random(20251120);
    for (let i = 0; i < 500; i++) {
      const rate = randomDecimal(next, 1 + Math.floor(next() * 5), Math.floor(next() * 12));
      const amount = randomDecimal(next, 1 + Math.floor(next() * 7), Math.floor(next() * 3));
      const percent = randomDecimal(next, 1, Math.floor(next() * 4));
      const fixedUsd = randomDecimal(next, 1, 2);
      const result = quoteCorridorPayout(
        request({
          amount,
          rates: new Map([["BRL", new Dec(rate)]]),
          corridor: { ...BR, minAmount: new Dec(0), maxAmount: new Dec("1e12") },
          fees: { percent: new Dec(percent), fixedUsd: new Dec(fixedUsd) },
        }),
      );
      expect(result.ok, `case ${i}: ${amount} at ${rate}`).toBe(true);
      if (!result.ok) continue;
      const q = result.value;
      const context = `case ${i}: ${amount} BRL at ${rate}, ${percent} % + ${fixedUsd}`;
      expect(q.totalUsd.eq(q.amountUsd.plus(q.percentageFee).plus(q.fixedFee)), context).toBe(true);
      expect(q.fee.eq(q.percentageFee.plus(q.fixedFee)), context).toBe(true);
      for (const part of [q.amountUsd, q.percentageFee, q.fixedFee, q.fee, q.totalUsd]) {
        expect(part.dp(), context).toBeLessThanOrEqual(INTERNAL_SCALE);
      }
      // amount_usd is the quotient quantized once, not a value rounded to cents.
      expect(q.amountUsd.minus(new Dec(amount).div(rate)).abs().lte(`1e-${INTERNAL_SCALE}`), context).toBe(
        true,
      );
      // Rendering rounds each figure independently of the stored ones.
      expect(usd(q.totalUsd, 2).text, context).toBe(q.totalUsd.toFixed(2, Dec.ROUND_HALF_UP));
    }
  });
});
