import { describe, expect, it } from "vitest";
import {
  decideAfterAttempt,
  describeFailure,
  MAX_RESPONSE_BODY_BYTES,
  storedResponseBody,
} from "./delivery-outcome.js";

const NOW = 1_700_000_000_000;
const SCHEDULE = [0, 1000, 5000];
const middle = () => 0.5; // no jitter

describe("decideAfterAttempt", () => {
  it.each([
    [{ status: 200 }, 1, { kind: "delivered" }],
    [{ status: 204 }, 3, { kind: "delivered" }],
    [{ status: 410 }, 1, { kind: "disable" }],
    [{ status: 500 }, 1, { kind: "retry", atMs: NOW + 1000 }],
    [{ status: 302 }, 2, { kind: "retry", atMs: NOW + 5000 }],
    [{ error: "timeout" }, 2, { kind: "retry", atMs: NOW + 5000 }],
    [{ status: 500 }, 3, { kind: "dead" }],
    [{ status: 404 }, 7, { kind: "dead" }],
  ] as const)("%j after %i attempt(s) → %j", (outcome, attemptsMade, expected) => {
    expect(
      decideAfterAttempt({ outcome, attemptsMade, schedule: SCHEDULE, nowMs: NOW, random: middle }),
    ).toEqual(expected);
  });

  it("lets Retry-After push the retry out, up to twice the scheduled delay", () => {
    const decide = (retryAfterHeader: string) =>
      decideAfterAttempt({
        outcome: { status: 503 },
        attemptsMade: 1,
        schedule: SCHEDULE,
        nowMs: NOW,
        random: middle,
        retryAfterHeader,
      });
    expect(decide("1")).toEqual({ kind: "retry", atMs: NOW + 1000 });
    expect(decide("120")).toEqual({ kind: "retry", atMs: NOW + 2000 });
  });
});

describe("storedResponseBody", () => {
  it("keeps a short answer whole", () => {
    expect(storedResponseBody(Buffer.from('{"received":true,"message":"ok"}'))).toBe(
      '{"received":true,"message":"ok"}',
    );
  });

  it("cuts a long answer to the limit without splitting a character", () => {
    const text = `${"a".repeat(MAX_RESPONSE_BODY_BYTES - 1)}é tail`;
    const stored = storedResponseBody(Buffer.from(text, "utf8"));
    expect(stored).toBe("a".repeat(MAX_RESPONSE_BODY_BYTES - 1));
    expect(stored).not.toContain("\uFFFD");
  });
});

describe("describeFailure", () => {
  it.each([
    [{ status: 200 }, undefined],
    [{ status: 301 }, "HTTP 301 (redirects are not followed)"],
    [{ status: 410 }, "HTTP 410 Gone: the configuration was deactivated"],
    [{ status: 503 }, "HTTP 503"],
    [{ error: "connect ECONNREFUSED" }, "connect ECONNREFUSED"],
  ] as const)("%j → %j", (outcome, expected) => {
    expect(describeFailure(outcome)).toBe(expected);
  });
});
