import { describe, expect, it } from "vitest";
import { railCallbackBody, railCallbackSignature } from "./rail-callback-sender.js";

describe("railCallbackSignature", () => {
  it("is base64 HMAC-SHA256 (RFC 4231 test case 2)", () => {
    // Published digest 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843, in base64.
    expect(railCallbackSignature("Jefe", "what do ya want for nothing?")).toBe(
      "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=",
    );
  });

  it("changes with a single byte of the body", () => {
    expect(railCallbackSignature("k", '{"a":1}')).not.toBe(railCallbackSignature("k", '{"a":1} '));
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
