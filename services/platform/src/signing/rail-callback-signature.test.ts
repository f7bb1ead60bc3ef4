import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  checkRailCallbackSignature,
  parseRailCallbackSecret,
  railCallbackSignature,
  railCallbackTimestamp,
} from "./rail-callback-signature.js";

const SECRET = "rail-secret";
const BODY = Buffer.from('{"tx_id":"tx_1","outcome":"SUCCESS"}');
const NOW = new Date("2026-11-24T12:00:00.000Z");
const TS = railCallbackTimestamp(NOW);
const TOLERANCE = 300_000;

const check = (timestamp: unknown, signature: unknown, body = BODY, now = NOW) =>
  checkRailCallbackSignature(SECRET, { timestamp, signature }, body, now, TOLERANCE);

describe("rail callback signature", () => {
  it("is base64 HMAC-SHA256 of '<timestamp>.<body>'", () => {
    expect(TS).toBe("1795521600");
    const expected = createHmac("sha256", SECRET).update(`${TS}.${BODY.toString()}`).digest("base64");
    expect(railCallbackSignature(SECRET, TS, BODY)).toBe(expected);
    expect(railCallbackSignature(SECRET, TS, BODY.toString())).toBe(expected);
  });

  it("accepts an authentic callback within the tolerance, either side of now", () => {
    expect(check(TS, railCallbackSignature(SECRET, TS, BODY))).toBe("valid");
    for (const offsetMs of [-TOLERANCE, TOLERANCE]) {
      expect(
        check(TS, railCallbackSignature(SECRET, TS, BODY), BODY, new Date(NOW.getTime() + offsetMs)),
      ).toBe("valid");
    }
  });

  it("refuses a stale or far-future authentic callback as stale", () => {
    const old = railCallbackTimestamp(new Date(NOW.getTime() - TOLERANCE - 1000));
    expect(check(old, railCallbackSignature(SECRET, old, BODY))).toBe("stale");
    const future = railCallbackTimestamp(new Date(NOW.getTime() + TOLERANCE + 1000));
    expect(check(future, railCallbackSignature(SECRET, future, BODY))).toBe("stale");
  });

  it("refuses a moved timestamp, another body, another secret, the body-only signature and bad headers", () => {
    const signed = railCallbackSignature(SECRET, TS, BODY);
    const fresh = railCallbackTimestamp(new Date(NOW.getTime() + 1000));
    expect(check(fresh, signed)).toBe("invalid");
    expect(check(TS, signed, Buffer.from(`${BODY.toString()} `))).toBe("invalid");
    expect(check(TS, railCallbackSignature("other", TS, BODY))).toBe("invalid");
    expect(check(TS, createHmac("sha256", SECRET).update(BODY).digest("base64"))).toBe("invalid");
    for (const [timestamp, signature] of [
      [undefined, signed],
      ["", signed],
      ["12.5", signed],
      [["1", "2"], signed],
      [TS, undefined],
      [TS, "not base64!"],
      [TS, "AAAA"],
    ]) {
      expect(check(timestamp, signature)).toBe("invalid");
    }
  });
});

describe("parseRailCallbackSecret", () => {
  it("refuses a key shorter than 32 bytes and says how long it must be", () => {
    expect(() => parseRailCallbackSecret("rail-secret")).toThrow("must be at least 32 bytes (got 11)");
    expect(() => parseRailCallbackSecret("x".repeat(31))).toThrow(/at least 32 bytes/);
  });

  it("accepts 32 bytes and more, counting UTF-8 bytes rather than characters", () => {
    expect(parseRailCallbackSecret("x".repeat(32))).toBe("x".repeat(32));
    expect(parseRailCallbackSecret("é".repeat(16))).toBe("é".repeat(16));
    expect(() => parseRailCallbackSecret("é".repeat(15))).toThrow(/got 30/);
  });
});
