import { checkRailCallbackSignature } from "@payouts/platform/signing/rail-callback-signature";
import { describe, expect, it } from "vitest";
import { railCallbackBody, railCallbackHeaders } from "./rail-callback-sender.js";

describe("railCallbackHeaders", () => {
  const body = '{"tx_id":"tx_1","outcome":"SUCCESS","reason":"","provider_reference":"sbx_1"}';
  const now = new Date("2026-11-24T12:00:00.750Z");

  it("sends the Unix timestamp of the attempt and signs it with the exact body", () => {
    const headers = railCallbackHeaders("k", body, now);
    expect(headers["x-rail-timestamp"]).toBe("1795521600");
    expect(headers["content-type"]).toBe("application/json");
    const check = (at: Date) =>
      checkRailCallbackSignature(
        "k",
        { timestamp: headers["x-rail-timestamp"], signature: headers["x-rail-signature"] },
        Buffer.from(body),
        at,
        300_000,
      );
    expect(check(now)).toBe("valid");
    expect(check(new Date(now.getTime() + 301_000))).toBe("stale");
  });

  it("signs every attempt anew: a later attempt carries a later timestamp and another signature", () => {
    const first = railCallbackHeaders("k", body, now);
    const retry = railCallbackHeaders("k", body, new Date(now.getTime() + 60_000));
    expect(Number(retry["x-rail-timestamp"]) - Number(first["x-rail-timestamp"])).toBe(60);
    expect(retry["x-rail-signature"]).not.toBe(first["x-rail-signature"]);
  });
});

describe("railCallbackBody", () => {
  it("carries tx_id, outcome, reason and provider_reference", () => {
    const body = railCallbackBody({
      txId: "tx_1",
      outcome: "FAILED",
      reason: "closed",
      providerReference: "sbx_1",
    });
    expect(body).toBe('{"tx_id":"tx_1","outcome":"FAILED","reason":"closed","provider_reference":"sbx_1"}');
  });
});
