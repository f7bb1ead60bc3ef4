import { describe, expect, it } from "vitest";
import {
  classifyResponse,
  DEFAULT_RETRY_SCHEDULE_MS,
  nextAttempt,
  parseRetryAfterMs,
  parseRetryScheduleMs,
  withJitter,
} from "./retry-policy.js";

const NOW = Date.UTC(2025, 2, 1, 12, 0, 0);
const MIDDLE = () => 0.5; // no jitter
const EARLIEST = () => 0; // -20 %
const LATEST = () => 0.999_999_999; // +20 %

describe("DEFAULT_RETRY_SCHEDULE_MS", () => {
  it("is 0 s, 10 s, 1 m, 5 m, 30 m, 2 h, 6 h, 12 h, 24 h, 48 h", () => {
    const s = 1000;
    const m = 60 * s;
    const h = 60 * m;
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([
      0,
      10 * s,
      m,
      5 * m,
      30 * m,
      2 * h,
      6 * h,
      12 * h,
      24 * h,
      48 * h,
    ]);
  });

  it("cannot be changed by a caller", () => {
    expect(() => (DEFAULT_RETRY_SCHEDULE_MS as number[]).push(1)).toThrow(TypeError);
  });
});

describe("parseRetryScheduleMs", () => {
  it.each([
    ["0,1000,5000", [0, 1000, 5000]],
    [" 0 , 1000 ,5000 ", [0, 1000, 5000]],
    ["250", [250]],
    ["604800000", [604_800_000]],
  ])("%j → %j", (text, expected) => {
    expect(parseRetryScheduleMs(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ["", /must list at least one delay/],
    ["   ", /must list at least one delay/],
    ["0,,5000", /entry 2 \(""\) is not a whole number of milliseconds/],
    ["0,1000,", /entry 3 \(""\) is not a whole number/],
    ["0,1.5", /entry 2 \("1.5"\) is not a whole number/],
    ["-1", /entry 1 \("-1"\) is not a whole number/],
    ["1e3", /entry 1 \("1e3"\)/],
    ["10s", /entry 1 \("10s"\)/],
    ["0;1000", /entry 1 \("0;1000"\)/],
    ["604800001", /entry 1 \("604800001"\) exceeds 604800000 ms \(7 days\)/],
    [Array.from({ length: 51 }, () => "1").join(","), /lists 51 delays; at most 50/],
  ])("refuses %j", (text, message) => {
    const result = parseRetryScheduleMs(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "INVALID_CONFIG", field: "WEBHOOK_RETRY_SCHEDULE_MS" });
    expect(result.error.message).toMatch(message);
    expect(result.error.message).toContain("WEBHOOK_RETRY_SCHEDULE_MS");
  });
});

describe("withJitter", () => {
  it.each([
    [10_000, 0, 8_000],
    [10_000, 0.5, 10_000],
    [10_000, 0.75, 11_000],
    [10_000, 1, 12_000],
    [10_000, -3, 8_000],
    [10_000, 7, 12_000],
    [0, 0.9, 0],
    [3, 0, 2],
    [3, 0.1, 3],
  ])("%s ms with random %s → %s ms", (delay, random, expected) => {
    expect(withJitter(delay, random)).toBe(expected);
  });
});

describe("nextAttempt", () => {
  const schedule = DEFAULT_RETRY_SCHEDULE_MS;

  it.each([
    [0, 0],
    [1, 10_000],
    [2, 60_000],
    [9, 48 * 3_600_000],
  ])("after %s attempts waits the scheduled %s ms (no jitter)", (attemptsMade, delay) => {
    expect(nextAttempt({ attemptsMade, schedule, nowMs: NOW, random: MIDDLE })).toEqual({
      kind: "retry",
      atMs: NOW + delay,
    });
  });

  it("is dead once every scheduled attempt is used", () => {
    expect(nextAttempt({ attemptsMade: 10, schedule, nowMs: NOW, random: MIDDLE })).toEqual({ kind: "dead" });
    expect(nextAttempt({ attemptsMade: 3, schedule: [0, 1, 2], nowMs: NOW, random: MIDDLE })).toEqual({
      kind: "dead",
    });
    expect(nextAttempt({ attemptsMade: 0, schedule: [], nowMs: NOW, random: MIDDLE })).toEqual({
      kind: "dead",
    });
  });

  it("keeps jitter within ±20 % of the scheduled delay", () => {
    const at = (random: () => number) => nextAttempt({ attemptsMade: 3, schedule, nowMs: NOW, random });
    expect(at(EARLIEST)).toEqual({ kind: "retry", atMs: NOW + 240_000 });
    expect(at(LATEST)).toEqual({ kind: "retry", atMs: NOW + 360_000 });
    for (let i = 0; i <= 100; i++) {
      const result = at(() => i / 101);
      if (result.kind !== "retry") throw new Error("expected a retry");
      expect(result.atMs - NOW).toBeGreaterThanOrEqual(240_000);
      expect(result.atMs - NOW).toBeLessThanOrEqual(360_000);
    }
  });

  it.each([
    ["a shorter Retry-After is raised to the schedule", "5", 60_000],
    ["a Retry-After inside the window is honoured", "90", 90_000],
    ["a longer Retry-After is capped at twice the schedule", "3600", 120_000],
    ["an HTTP date is honoured", new Date(NOW + 100_000).toUTCString(), 100_000],
    ["an HTTP date in the past means the schedule", new Date(NOW - 100_000).toUTCString(), 60_000],
    ["an unparseable value is ignored", "soon", 60_000],
    ["a negative value is ignored", "-30", 60_000],
  ])("%s", (_name, retryAfterHeader, delay) => {
    expect(nextAttempt({ attemptsMade: 2, schedule, nowMs: NOW, random: MIDDLE, retryAfterHeader })).toEqual({
      kind: "retry",
      atMs: NOW + delay,
    });
  });

  it("clamps Retry-After around the jittered delay", () => {
    const result = nextAttempt({
      attemptsMade: 2,
      schedule,
      nowMs: NOW,
      random: EARLIEST,
      retryAfterHeader: "1",
    });
    expect(result).toEqual({ kind: "retry", atMs: NOW + 48_000 });
  });

  it("still declares dead when a Retry-After arrives after the last attempt", () => {
    expect(
      nextAttempt({ attemptsMade: 10, schedule, nowMs: NOW, random: MIDDLE, retryAfterHeader: "5" }),
    ).toEqual({
      kind: "dead",
    });
  });

  it.each([-1, 1.5, Number.NaN])("refuses attemptsMade %s", (attemptsMade) => {
    expect(() => nextAttempt({ attemptsMade, schedule, nowMs: NOW, random: MIDDLE })).toThrow(RangeError);
  });
});

describe("parseRetryAfterMs", () => {
  it.each([
    ["120", 120_000],
    [" 0 ", 0],
    ["Sat, 01 Mar 2025 12:02:00 GMT", 120_000],
    ["Sat, 01 Mar 2025 11:00:00 GMT", 0],
    ["Saturday, 01-Mar-25 12:02:00 GMT", undefined],
    ["Sat Mar  1 12:02:00 2025", undefined],
    ["2025-03-01T12:02:00Z", undefined],
    ["1.5", undefined],
    ["", undefined],
    ["99999999999", undefined],
  ])("%j → %s", (header, expected) => {
    expect(parseRetryAfterMs(header, NOW)).toBe(expected);
  });
});

describe("classifyResponse", () => {
  it.each([
    [{ status: 200 }, "delivered"],
    [{ status: 201 }, "delivered"],
    [{ status: 204 }, "delivered"],
    [{ status: 299 }, "delivered"],
    [{ status: 410 }, "disable"],
    [{ status: 100 }, "retry"],
    [{ status: 301 }, "retry"],
    [{ status: 302 }, "retry"],
    [{ status: 400 }, "retry"],
    [{ status: 401 }, "retry"],
    [{ status: 404 }, "retry"],
    [{ status: 429 }, "retry"],
    [{ status: 500 }, "retry"],
    [{ status: 503 }, "retry"],
    [{ status: 200.5 }, "retry"],
    [{ error: "timeout after 10000 ms" }, "retry"],
    [{ error: "ECONNREFUSED" }, "retry"],
    [{ error: "address 10.0.0.1 is not allowed" }, "retry"],
  ] as const)("%j → %s", (outcome, expected) => {
    expect(classifyResponse(outcome)).toBe(expected);
  });
});
