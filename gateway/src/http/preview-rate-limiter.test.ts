import { describe, expect, it } from "vitest";
import { createPreviewRateLimiter } from "./preview-rate-limiter.js";

function clock(startMs = 1_000_000) {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

describe("createPreviewRateLimiter", () => {
  it("allows a full minute's burst per app, then refuses with the seconds until the next token", () => {
    const time = clock();
    const limiter = createPreviewRateLimiter(time.now);
    const results = Array.from({ length: 4 }, () => limiter.take("ci_a", 3));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]?.retryAfterSeconds).toBe(20);
    time.advance(19_000);
    expect(limiter.take("ci_a", 3)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    time.advance(1_000);
    expect(limiter.take("ci_a", 3).allowed).toBe(true);
  });

  it("keeps one bucket per client id", () => {
    const limiter = createPreviewRateLimiter(clock().now);
    expect(limiter.take("ci_a", 1).allowed).toBe(true);
    expect(limiter.take("ci_a", 1).allowed).toBe(false);
    expect(limiter.take("ci_b", 1).allowed).toBe(true);
  });

  it("resizes an app's bucket when its limit changes, without minting tokens", () => {
    const limiter = createPreviewRateLimiter(clock().now);
    for (let i = 0; i < 2; i++) limiter.take("ci_a", 2);
    expect(limiter.take("ci_a", 2).allowed).toBe(false);
    expect(limiter.take("ci_a", 5).allowed).toBe(false);
  });

  it.each([0, -1, Number.NaN])("does not limit an app whose limit is %s", (limit) => {
    const limiter = createPreviewRateLimiter(clock().now);
    for (let i = 0; i < 100; i++)
      expect(limiter.take("ci_a", limit)).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });
});
