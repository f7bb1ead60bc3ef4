import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { checkCorridorLimits, parseCorridor } from "./corridor.js";

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
  const valid = { country_code: "BR", currency: "BRL", min_amount: "1", max_amount: 50000, enabled: true };

  it("accepts decimal strings and numbers", () => {
    const parsed = parseCorridor(valid);
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.value.maxAmount.eq(50000) && parsed.value.countryCode === "BR").toBe(true);
  });

  it.each([
    [{ country_code: "br" }, "country_code"],
    [{ country_code: "BRA" }, "country_code"],
    [{ currency: "brl" }, "currency"],
    [{ currency: "ZZZ" }, "currency"],
    [{ min_amount: "-1" }, "min_amount"],
    [{ min_amount: "x" }, "min_amount"],
    [{ max_amount: "0.5" }, "max_amount"],
    [{ max_amount: undefined }, "max_amount"],
    [{ enabled: "true" }, "enabled"],
  ])("rejects %j at %s", (override, field) => {
    const parsed = parseCorridor({ ...valid, ...override });
    expect(parsed.ok ? undefined : parsed.error).toMatchObject({ code: "INVALID_FIELD", field });
  });
});
