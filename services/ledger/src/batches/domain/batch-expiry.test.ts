import { describe, expect, it } from "vitest";
import { validatedExpiry } from "./batch-expiry.js";

const at = new Date("2026-01-01T00:00:00Z");

describe("a validated batch's expiry", () => {
  it("is its earliest payable quote's expiry when it has a payable item", () => {
    const quote = new Date("2026-01-01T00:05:00Z");
    expect(validatedExpiry(quote, at, 86_400_000)).toEqual(quote);
  });

  it("is the idle TTL after validation when nothing is payable, never none", () => {
    expect(validatedExpiry(null, at, 86_400_000)).toEqual(new Date("2026-01-02T00:00:00Z"));
  });
});
