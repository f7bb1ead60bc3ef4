import { describe, expect, it } from "vitest";
import type { EventMessage } from "./event-bus.js";
import {
  createEventSigner,
  createEventVerifier,
  EVENT_SIGNATURE_HEADER,
  EVENT_SIGNATURE_KEY_HEADER,
  generateEventSigningKeys,
  parseSigningKey,
  parseVerifyKeys,
  verifyKeyOf,
} from "./event-signature.js";

const message: EventMessage = {
  topic: "events",
  key: "tx_1",
  value: new TextEncoder().encode("the exact event bytes"),
  headers: { "event-id": "evt_1" },
};

const pair = () => {
  const keys = generateEventSigningKeys();
  return { ...keys, signer: createEventSigner(parseSigningKey(keys.signingKey)) };
};

describe("event signatures", () => {
  it("accepts a message signed by a key it holds, keeping the other headers", () => {
    const { signer, verifyKey } = pair();
    const signed = signer.sign(message);
    expect(signed.headers["event-id"]).toBe("evt_1");
    expect(signed.headers[EVENT_SIGNATURE_KEY_HEADER]).toBe(signer.keyId);
    expect(createEventVerifier(parseVerifyKeys(verifyKey)).verify(signed)).toEqual({ ok: true });
  });

  it("accepts either of two keys while keys are rotated", () => {
    const old = pair();
    const next = pair();
    const verifier = createEventVerifier(parseVerifyKeys(`${old.verifyKey}, ${next.verifyKey}`));
    expect(verifier.verify(old.signer.sign(message)).ok).toBe(true);
    expect(verifier.verify(next.signer.sign(message)).ok).toBe(true);
  });

  it("refuses unsigned messages, unknown keys, altered bodies and another key's signature", () => {
    const { signer, verifyKey } = pair();
    const verifier = createEventVerifier(parseVerifyKeys(verifyKey));
    expect(verifier.verify(message)).toMatchObject({ ok: false, reason: "unsigned" });
    expect(verifier.verify(pair().signer.sign(message))).toMatchObject({ ok: false, reason: "unknown_key" });
    const signed = signer.sign(message);
    const altered = { ...signed, value: new TextEncoder().encode("the exact event bytes!") };
    expect(verifier.verify(altered)).toMatchObject({ ok: false, reason: "bad_signature" });
    const otherSignature = pair().signer.sign(message).headers[EVENT_SIGNATURE_HEADER]!;
    const swapped = { ...signed, headers: { ...signed.headers, [EVENT_SIGNATURE_HEADER]: otherSignature } };
    expect(verifier.verify(swapped)).toMatchObject({ ok: false, reason: "bad_signature" });
    const garbage = { ...signed, headers: { ...signed.headers, [EVENT_SIGNATURE_HEADER]: "AAAA" } };
    expect(verifier.verify(garbage)).toMatchObject({ ok: false, reason: "bad_signature" });
  });

  it("reads keys in their environment forms and refuses others without echoing them", () => {
    const { signingKey, verifyKey } = pair();
    expect(verifyKeyOf(signingKey)).toBe(verifyKey);
    expect(() => parseSigningKey("c2VjcmV0")).toThrow(/Ed25519 private key/);
    expect(() => parseSigningKey(verifyKey)).toThrow(/Ed25519 private key/);
    expect(() => parseVerifyKeys(`${verifyKey},c2VjcmV0`)).toThrow(/key 2: expected an Ed25519 public key/);
    expect(() => parseVerifyKeys(" , ")).toThrow(/at least one/);
  });
});
