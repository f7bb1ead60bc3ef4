import { describe, expect, it } from "vitest";
import { createTokenBucket, type TokenBucketState } from "./token-bucket.js";

describe("createTokenBucket", () => {
  it("allows a full burst, then refuses with Retry-After until a token refills", () => {
    const bucket = createTokenBucket({ capacity: 3, refillPerMinute: 60 });
    let state: TokenBucketState | undefined;
    const outcomes: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      const result = bucket.take(state, 0);
      outcomes.push(result.allowed);
      state = result.state;
    }
    expect(outcomes).toEqual([true, true, true, false]);
    const early = bucket.take(state, 500);
    expect(early).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(bucket.take(early.state, 1000)).toMatchObject({ allowed: true, retryAfterSeconds: 0 });
  });

  it("tells a slowly refilling bucket's caller to wait a whole minute", () => {
    const bucket = createTokenBucket({ capacity: 1, refillPerMinute: 1 });
    const first = bucket.take(undefined, 0);
    expect(bucket.take(first.state, 0)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    expect(bucket.take(first.state, 59_000)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(bucket.take(first.state, 60_000).allowed).toBe(true);
  });

  it("never holds more than its capacity after a long idle", () => {
    const bucket = createTokenBucket({ capacity: 2, refillPerMinute: 60 });
    const idle = bucket.take({ tokens: 0, updatedAtMs: 0 }, 3_600_000);
    expect(idle.state.tokens).toBe(1);
  });

  it("neither refills nor rewinds when the clock steps backwards", () => {
    const bucket = createTokenBucket({ capacity: 5, refillPerMinute: 60 });
    const result = bucket.take({ tokens: 0.5, updatedAtMs: 10_000 }, 4_000);
    expect(result.allowed).toBe(false);
    expect(result.state).toEqual({ tokens: 0.5, updatedAtMs: 10_000 });
  });

  it("admits at most capacity plus the refill over a minute of hammering", () => {
    const bucket = createTokenBucket({ capacity: 5, refillPerMinute: 60 });
    let state: TokenBucketState | undefined;
    let allowed = 0;
    for (let nowMs = 0; nowMs < 60_000; nowMs += 100) {
      const result = bucket.take(state, nowMs);
      state = result.state;
      allowed += result.allowed ? 1 : 0;
    }
    expect(allowed).toBeGreaterThanOrEqual(64);
    expect(allowed).toBeLessThanOrEqual(65);
  });

  it.each([
    { capacity: 0, refillPerMinute: 60 },
    { capacity: 1, refillPerMinute: 0 },
    { capacity: Number.NaN, refillPerMinute: 60 },
    { capacity: 1, refillPerMinute: Number.POSITIVE_INFINITY },
  ])("refuses config %j", (config) => {
    expect(() => createTokenBucket(config)).toThrow(RangeError);
  });
});
