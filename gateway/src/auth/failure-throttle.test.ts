import { describe, expect, it } from "vitest";
import { createBoundedExpiringMap } from "./bounded-expiring-map.js";
import { createFailureThrottle } from "./failure-throttle.js";

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("failure throttle", () => {
  it("refuses a key after `limit` failures until its window closes, with the seconds left", () => {
    const c = clock();
    const throttle = createFailureThrottle({ limit: 3, windowMs: 60_000, maxEntries: 100, now: c.now });
    throttle.recordFailure("a");
    c.advance(10_000);
    throttle.recordFailure("a");
    expect(throttle.retryAfterSeconds("a")).toBe(0);
    throttle.recordFailure("a");
    expect(throttle.retryAfterSeconds("a")).toBe(50);
    expect(throttle.retryAfterSeconds("b")).toBe(0);
    c.advance(49_500);
    expect(throttle.retryAfterSeconds("a")).toBe(1);
    c.advance(500);
    expect(throttle.retryAfterSeconds("a")).toBe(0);
    throttle.recordFailure("a");
    expect(throttle.retryAfterSeconds("a")).toBe(0);
  });

  it("takes back a failure counted up front, never below zero", () => {
    const c = clock();
    const throttle = createFailureThrottle({ limit: 2, windowMs: 60_000, maxEntries: 100, now: c.now });
    throttle.forgive("a");
    throttle.recordFailure("a");
    throttle.recordFailure("a");
    expect(throttle.retryAfterSeconds("a")).toBe(60);
    throttle.forgive("a");
    expect(throttle.retryAfterSeconds("a")).toBe(0);
    throttle.forgive("a");
    throttle.forgive("a");
    throttle.recordFailure("a");
    expect(throttle.retryAfterSeconds("a")).toBe(0);
    throttle.recordFailure("a");
    expect(throttle.retryAfterSeconds("a")).toBe(60);
  });

  it("is off with a limit of 0", () => {
    const c = clock();
    const throttle = createFailureThrottle({ limit: 0, windowMs: 60_000, maxEntries: 100, now: c.now });
    for (let i = 0; i < 50; i++) throttle.recordFailure("a");
    expect(throttle.retryAfterSeconds("a")).toBe(0);
  });

  it("holds at most maxEntries keys, dropping the least recently failed", () => {
    const c = clock();
    const throttle = createFailureThrottle({ limit: 1, windowMs: 60_000, maxEntries: 2, now: c.now });
    throttle.recordFailure("a");
    throttle.recordFailure("b");
    throttle.recordFailure("a");
    throttle.recordFailure("c");
    expect(throttle.retryAfterSeconds("a")).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds("b")).toBe(0);
    expect(throttle.retryAfterSeconds("c")).toBeGreaterThan(0);
  });
});

describe("bounded expiring map", () => {
  it("forgets entries at their expiry and caps its size", () => {
    const c = clock();
    const map = createBoundedExpiringMap<string, number>(3, c.now);
    map.set("a", 1, c.now() + 1_000);
    map.set("b", 2, c.now() + 5_000);
    expect(map.get("a")).toBe(1);
    c.advance(1_000);
    expect(map.get("a")).toBeUndefined();
    expect(map.get("b")).toBe(2);
    for (let i = 0; i < 1_000; i++) map.set(`k${i}`, i, c.now() + 60_000);
    expect(map.size).toBe(3);
    expect(map.get("b")).toBeUndefined();
    expect(map.get("k999")).toBe(999);
  });
});
