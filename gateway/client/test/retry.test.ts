import { describe, expect, it } from "vitest";
import { PayoutsError, parseRetryAfter } from "../src/errors.js";
import { DEFAULT_RETRY, isRetryable, retryDelay, retryPolicy } from "../src/retry.js";

const failure = (status: number, code: string, retryAfterMs?: number) =>
  new PayoutsError<string>({ status, code, message: code, retryAfterMs });

describe("which failures executePayout retries", () => {
  it("retries no answer, every 5xx and 409 IDEMPOTENCY_KEY_IN_USE", () => {
    expect(isRetryable(failure(0, "NETWORK_ERROR"))).toBe(true);
    expect(isRetryable(failure(500, "INTERNAL"))).toBe(true);
    expect(isRetryable(failure(502, "INVALID_RESPONSE"))).toBe(true);
    expect(isRetryable(failure(503, "SERVICE_UNAVAILABLE"))).toBe(true);
    expect(isRetryable(failure(409, "IDEMPOTENCY_KEY_IN_USE"))).toBe(true);
  });

  it("never retries another 4xx", () => {
    for (const [status, code] of [
      [400, "INVALID_FIELD"],
      [401, "AUTHENTICATION_REQUIRED"],
      [404, "TRANSACTION_NOT_FOUND"],
      [409, "TRANSACTION_NOT_PENDING"],
      [409, "INSUFFICIENT_FUNDS"],
      [422, "IDEMPOTENCY_KEY_REUSED"],
      [429, "RATE_LIMIT_EXCEEDED"],
    ] as const) {
      expect(isRetryable(failure(status, code)), code).toBe(false);
      expect(retryDelay(failure(status, code), 1, DEFAULT_RETRY)).toBeUndefined();
    }
  });
});

describe("retryDelay", () => {
  const policy = retryPolicy({ maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1_000 });

  it("doubles a jittered backoff up to the cap: half fixed, half random", () => {
    const error = failure(503, "SERVICE_UNAVAILABLE");
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(error, n, policy, () => 0))).toEqual([
      50, 100, 200, 400, 500,
    ]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(error, n, policy, () => 0.999_999))).toEqual([
      100, 200, 400, 800, 1_000,
    ]);
  });

  it("stops after maxAttempts, and when retries are off", () => {
    const error = failure(0, "NETWORK_ERROR");
    expect(retryDelay(error, 5, policy, () => 0)).toBe(500);
    expect(retryDelay(error, 6, policy, () => 0)).toBeUndefined();
    expect(retryDelay(error, 1, retryPolicy(false))).toBeUndefined();
  });

  it("waits at least Retry-After, and gives up when it asks for more than maxRetryAfterMs", () => {
    expect(retryDelay(failure(409, "IDEMPOTENCY_KEY_IN_USE", 1_000), 1, policy, () => 0)).toBe(1_000);
    expect(retryDelay(failure(503, "SERVICE_UNAVAILABLE", 10), 4, policy, () => 0)).toBe(400);
    expect(retryDelay(failure(503, "SERVICE_UNAVAILABLE", 31_000), 1, policy)).toBeUndefined();
  });

  it("refuses a nonsensical policy", () => {
    expect(() => retryPolicy({ maxAttempts: 0 })).toThrow(RangeError);
    expect(() => retryPolicy({ baseDelayMs: -1 })).toThrow(RangeError);
    expect(() => retryPolicy({ maxAttempts: 1.5 })).toThrow(RangeError);
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds and HTTP dates", () => {
    const now = Date.parse("2026-11-25T00:00:00Z");
    expect(parseRetryAfter("1", now)).toBe(1_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Wed, 25 Nov 2026 00:00:03 GMT", now)).toBe(3_000);
    expect(parseRetryAfter("Tue, 24 Nov 2026 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});
