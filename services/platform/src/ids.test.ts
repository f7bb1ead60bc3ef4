import { describe, expect, it } from "vitest";
import { monotonicIds, newId } from "./ids.js";

describe("newId", () => {
  it("sorts by creation time across milliseconds", () => {
    expect(newId("tx", 1_000) < newId("tx", 1_001)).toBe(true);
    expect(newId("tx", 1_000)).toMatch(/^tx_[0-9a-hjkmnp-tv-z]{26}$/);
  });
});

describe("monotonicIds", () => {
  it("makes ids of one millisecond sort in the order they were made", () => {
    const next = monotonicIds("whd");
    const ids = Array.from({ length: 500 }, () => next(42_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(500);
    expect(ids.every((id) => id.startsWith(newId("whd", 42_000).slice(0, 14)))).toBe(true);
  });

  it("goes back to fresh random ids in a later millisecond", () => {
    const next = monotonicIds("whd");
    const first = next(42_000);
    const later = next(42_001);
    expect(later > first).toBe(true);
    expect(later.slice(0, 14)).toBe(newId("whd", 42_001).slice(0, 14));
  });

  it("carries into the next character when the last one is at the end of the alphabet", () => {
    const next = monotonicIds("x");
    // Force the successor path many times: an earlier clock reading never sorts after the last id.
    const ids = [next(5_000), ...Array.from({ length: 2_000 }, () => next(4_000))];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
