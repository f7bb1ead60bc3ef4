import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import type { Corridor } from "./corridor.js";
import { PREVIEW_TTL_MS, type PreviewRequest, previewQuotations, validatePreviewBody } from "./preview.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");

const corridor = (currency: string, min: string, max: string, enabled = true): Corridor => ({
  countryCode: "XX",
  currency,
  minAmount: new Dec(min),
  maxAmount: new Dec(max),
  enabled,
});

function request(overrides: Partial<PreviewRequest>): PreviewRequest {
  return {
    amount: new Dec(100),
    currency: "BRL",
    rates: new Map([
      ["BRL", new Dec(5)],
      ["KES", new Dec("129.25")],
      ["VND", new Dec(26300)],
    ]),
    supportedCurrencies: [],
    corridorsByCurrency: new Map(),
    fees: { percent: new Dec("1.5"), fixedUsd: new Dec("0.30") },
    now: NOW,
    ...overrides,
  };
}

function quotations(overrides: Partial<PreviewRequest>) {
  const result = previewQuotations(request(overrides));
  if (!result.ok) {
    throw new Error(`unexpected ${result.error.code}`);
  }
  return result.value;
}

describe("previewQuotations", () => {
  it("returns only USD when no supported currencies are configured", () => {
    const [only, ...rest] = quotations({});
    expect(rest).toHaveLength(0);
    expect(only?.currency).toBe("USD");
    expect(only?.amount.eq(20)).toBe(true);
    expect(only?.exchangeRate.eq(1)).toBe(true);
    expect(only?.amountUsd.eq(20)).toBe(true);
    expect(only?.fee.eq("0.6")).toBe(true);
    expect(only?.totalUsd.eq("20.6")).toBe(true);
  });

  it("prices every supported currency in the configured order", () => {
    const result = quotations({ supportedCurrencies: ["VND", "usd", "KES", "BRL", "VND"] });
    expect(result.map((q) => q.currency)).toEqual(["VND", "USD", "KES", "BRL"]);
    expect(result.map((q) => q.amount.toFixed())).toEqual(["526000", "20", "2585", "100"]);
    for (const quotation of result) {
      expect(quotation.amountUsd.eq(20)).toBe(true);
    }
  });

  it("keeps the partner's amount exactly when the target is the source currency", () => {
    const [brl] = quotations({ supportedCurrencies: ["BRL"], rates: new Map([["BRL", new Dec(3)]]) });
    expect(brl?.amount.toFixed()).toBe("100");
    expect(brl?.amountUsd.toFixed()).toBe("33.333333333333333333");
  });

  it("omits a target without an FX rate", () => {
    expect(quotations({ supportedCurrencies: ["EUR", "KES"] }).map((q) => q.currency)).toEqual(["KES"]);
  });

  it("omits targets outside their corridor limits and keeps those on the boundary", () => {
    const corridorsByCurrency = new Map([
      ["KES", corridor("KES", "10", "2584.99")],
      ["VND", corridor("VND", "526000", "500000000")],
      ["BRL", corridor("BRL", "100.01", "50000")],
    ]);
    const result = quotations({ supportedCurrencies: ["KES", "VND", "BRL"], corridorsByCurrency });
    expect(result.map((q) => q.currency)).toEqual(["VND"]);
  });

  it("omits a disabled corridor's currency", () => {
    const corridorsByCurrency = new Map([["KES", corridor("KES", "0", "1000000", false)]]);
    expect(
      quotations({ supportedCurrencies: ["KES", "BRL"], corridorsByCurrency }).map((q) => q.currency),
    ).toEqual(["BRL"]);
  });

  it("applies USD limits only when a USD corridor is configured", () => {
    const corridorsByCurrency = new Map([["USD", corridor("USD", "25", "1000")]]);
    expect(quotations({ supportedCurrencies: ["USD"] })).toHaveLength(1);
    expect(quotations({ supportedCurrencies: ["USD"], corridorsByCurrency })).toHaveLength(0);
  });

  it("converts a USD source with the implicit rate of 1", () => {
    const [kes] = quotations({ amount: new Dec(10), currency: "USD", supportedCurrencies: ["KES"] });
    expect(kes?.amount.toFixed()).toBe("1292.5");
    expect(kes?.amountUsd.eq(10)).toBe(true);
  });

  it("sets expires_at 30 minutes after now", () => {
    expect(PREVIEW_TTL_MS).toBe(1_800_000);
    const [only] = quotations({});
    expect(only?.expiresAt.toISOString()).toBe("2026-03-01T12:30:00.000Z");
  });

  it("fails with INVALID_CURRENCY when the source currency has no rate", () => {
    const result = previewQuotations(request({ currency: "EUR" }));
    expect(result.ok ? undefined : result.error).toMatchObject({
      code: "INVALID_CURRENCY",
      field: "currency",
    });
  });
});

describe("validatePreviewBody", () => {
  it.each([
    [undefined, "INVALID_AMOUNT"],
    [null, "INVALID_AMOUNT"],
    ["amount=1", "INVALID_AMOUNT"],
    [[100, "USD"], "INVALID_AMOUNT"],
    [{}, "INVALID_AMOUNT"],
    [{ currency: "USD" }, "INVALID_AMOUNT"],
    [{ amount: 0, currency: "USD" }, "INVALID_AMOUNT"],
    [{ amount: -5, currency: "USD" }, "INVALID_AMOUNT"],
    [{ amount: "abc", currency: "USD" }, "INVALID_AMOUNT"],
    [{ amount: true, currency: "USD" }, "INVALID_AMOUNT"],
    [{ amount: null, currency: "USD" }, "INVALID_AMOUNT"],
    [{ amount: 0, currency: "nope" }, "INVALID_AMOUNT"],
    [{ amount: 0 }, "INVALID_AMOUNT"],
    [{ amount: 10 }, "MISSING_REQUIRED_FIELD"],
    [{ amount: 10, currency: "" }, "MISSING_REQUIRED_FIELD"],
    [{ amount: 10, currency: null }, "MISSING_REQUIRED_FIELD"],
    [{ amount: 10, currency: 840 }, "MISSING_REQUIRED_FIELD"],
    [{ amount: 10, currency: "XYZ" }, "MISSING_REQUIRED_FIELD"],
    [{ amount: 10, currency: "US" }, "MISSING_REQUIRED_FIELD"],
    [{ amount: 10, currency: " USD" }, "MISSING_REQUIRED_FIELD"],
    [{ amount: 10, currency: "HRK" }, "MISSING_REQUIRED_FIELD"],
  ])("rejects %j with %s", (body, code) => {
    const result = validatePreviewBody(body);
    const field = code === "INVALID_AMOUNT" ? "amount" : "currency";
    expect(result.ok ? undefined : result.error).toMatchObject({ code, field });
  });

  it.each([
    [{ amount: 100, currency: "brl" }, "100", "BRL"],
    [{ amount: "10.50", currency: "Usd" }, "10.5", "USD"],
    [{ amount: 1, currency: "VND", extra: 1 }, "1", "VND"],
    [{ amount: "100.120", currency: "BRL" }, "100.12", "BRL"],
  ])("accepts %j", (body, amount, currency) => {
    const result = validatePreviewBody(body);
    expect(result.ok && result.value.amount.toFixed()).toBe(amount);
    expect(result.ok && result.value.currency).toBe(currency);
  });

  it.each([
    [{ amount: 100.123, currency: "BRL" }],
    [{ amount: "1.001", currency: "usd" }],
    [{ amount: "50000.5", currency: "VND" }],
  ])("refuses %j with INVALID_AMOUNT: more decimals than the currency's minor units", (body) => {
    const result = validatePreviewBody(body);
    expect(result.ok ? undefined : result.error).toMatchObject({ code: "INVALID_AMOUNT", field: "amount" });
  });

  it("judges the decimals only once the currency is known (missing currency first)", () => {
    const result = validatePreviewBody({ amount: "100.123" });
    expect(result.ok ? undefined : result.error).toMatchObject({ code: "MISSING_REQUIRED_FIELD" });
  });

  it("leaves a valid ISO code without a rate to previewQuotations (INVALID_CURRENCY, checked last)", () => {
    const body = validatePreviewBody({ amount: 10, currency: "eur" });
    expect(body.ok).toBe(true);
    if (body.ok) {
      const result = previewQuotations(request({ amount: body.value.amount, currency: body.value.currency }));
      expect(result.ok ? undefined : result.error.code).toBe("INVALID_CURRENCY");
    }
  });
});
