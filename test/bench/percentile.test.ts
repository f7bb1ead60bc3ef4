import { describe, expect, it } from "vitest";
import { percentile } from "./percentile.js";

describe("percentile (nearest rank)", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted on purpose
  it.each([
    [50, 50],
    [99, 99],
    [100, 100],
    [1, 1],
    [0, 1],
  ])("p%d of 1..100 is %d", (p, value) => {
    expect(percentile(hundred, p)).toBe(value);
  });

  it("is 0 for no values and rounds to 0.01", () => {
    expect(percentile([], 99)).toBe(0);
    expect(percentile([1.23456], 50)).toBe(1.23);
  });
});
