import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { type Corridor, checkCorridorLimits, limitsByCurrency, parseCorridor } from "./corridor.js";

const limits = { minAmount: new Dec(10), maxAmount: new Dec(1000) };

describe("checkCorridorLimits", () => {
  it.each(["10", "500", "1000"])("allows %s within 10..1000 (inclusive)", (amount) => {
    expect(checkCorridorLimits(new Dec(amount), limits)).toEqual({ ok: true });
  });

  it.each(["9.99", "1000.01", "0"])("refuses %s with the limits", (amount) => {
    const result = checkCorridorLimits(new Dec(amount), limits);
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE" });
    expect(!result.ok && result.min.eq(10) && result.max.eq(1000)).toBe(true);
  });
});

describe("parseCorridor", () => {
  const valid = { countryCode: "BR", currency: "BRL", minAmount: "1", maxAmount: 50000, enabled: true };

  it("accepts decimal strings and numbers", () => {
    const parsed = parseCorridor(valid);
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.value.maxAmount.eq(50000) && parsed.value.countryCode === "BR").toBe(true);
  });

  it.each([
    [{ countryCode: "br" }, "country_code"],
    [{ countryCode: "BRA" }, "country_code"],
    [{ currency: "brl" }, "currency"],
    [{ currency: "ZZZ" }, "currency"],
    [{ minAmount: "-1" }, "min_amount"],
    [{ minAmount: "x" }, "min_amount"],
    [{ maxAmount: "0.5" }, "max_amount"],
    [{ maxAmount: undefined }, "max_amount"],
    [{ enabled: "true" }, "enabled"],
  ])("rejects %j at %s", (override, field) => {
    const parsed = parseCorridor({ ...valid, ...override });
    expect(parsed.ok ? undefined : parsed.error).toMatchObject({ code: "INVALID_FIELD", field });
  });
});

describe("parseCorridor limits in minor units", () => {
  it.each([
    [{ minAmount: "1.001" }, "min_amount"],
    [{ maxAmount: 50000.5, currency: "VND" }, "max_amount"],
  ])("refuses %j with INVALID_AMOUNT at %s", (override, field) => {
    const parsed = parseCorridor({
      countryCode: "BR",
      currency: "BRL",
      minAmount: "1",
      maxAmount: "50000",
      enabled: true,
      ...override,
    });
    expect(parsed.ok ? undefined : parsed.error).toMatchObject({ code: "INVALID_AMOUNT", field });
  });

  it("accepts limits with trailing zeros", () => {
    expect(
      parseCorridor({
        countryCode: "BR",
        currency: "BRL",
        minAmount: "1.000",
        maxAmount: "50000.10",
        enabled: true,
      }).ok,
    ).toBe(true);
  });
});

describe("parseCorridor currency", () => {
  it("refuses a currency ISO lists without minor units, which no amount could be rendered in", () => {
    const parsed = parseCorridor({
      countryCode: "ZZ",
      currency: "XAU",
      minAmount: 0,
      maxAmount: 1,
      enabled: true,
    });
    expect(parsed.ok ? undefined : parsed.error).toMatchObject({ code: "INVALID_FIELD", field: "currency" });
  });
});

describe("limitsByCurrency", () => {
  const corridor = (countryCode: string, currency: string, min: number, max: number, enabled = true) => ({
    countryCode,
    currency,
    minAmount: new Dec(min),
    maxAmount: new Dec(max),
    enabled,
  });
  const summary = (map: Map<string, Corridor>) =>
    Object.fromEntries(
      [...map].map(([currency, c]) => [
        currency,
        [c.minAmount.toNumber(), c.maxAmount.toNumber(), c.enabled],
      ]),
    );

  it("keeps one corridor per currency as it is", () => {
    expect(
      summary(limitsByCurrency([corridor("BR", "BRL", 1, 50000), corridor("PE", "PEN", 1, 30000)])),
    ).toEqual({
      BRL: [1, 50000, true],
      PEN: [1, 30000, true],
    });
  });

  it("widens the limits of enabled corridors sharing a currency", () => {
    const map = limitsByCurrency([
      corridor("EC", "USD", 5, 1000),
      corridor("SV", "USD", 1, 500),
      corridor("PA", "USD", 10, 2000),
    ]);
    expect(summary(map)).toEqual({ USD: [1, 2000, true] });
  });

  it("ignores disabled corridors next to an enabled one, and keeps a currency disabled when all are", () => {
    const mixed = limitsByCurrency([corridor("EC", "USD", 0, 1e6, false), corridor("SV", "USD", 1, 500)]);
    expect(summary(mixed)).toEqual({ USD: [1, 500, true] });
    const allOff = limitsByCurrency([
      corridor("EC", "USD", 1, 5, false),
      corridor("SV", "USD", 1, 500, false),
    ]);
    expect(summary(allOff).USD?.[2]).toBe(false);
  });
});
