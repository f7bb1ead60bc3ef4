import { describe, expect, it } from "vitest";
import { ConfigError } from "../config/env-config.js";
import { generateEventSigningKeys } from "./event-signature.js";
import { loadEventSigner, loadEventVerifier } from "./event-signing-config.js";

const message = { topic: "t", key: "k", value: new Uint8Array([1, 2, 3]), headers: {} };

describe("event signing configuration", () => {
  it("signs with EVENT_SIGNING_KEY what EVENT_VERIFY_KEYS verifies", () => {
    const keys = generateEventSigningKeys();
    const signer = loadEventSigner({ EVENT_SIGNING_KEY: keys.signingKey });
    const verifier = loadEventVerifier({ EVENT_VERIFY_KEYS: keys.verifyKey });
    expect(verifier.verify(signer!.sign(message))).toEqual({ ok: true });
  });

  it("fails closed outside production: no signer, and a verifier that refuses everything", () => {
    expect(loadEventSigner({})).toBeUndefined();
    const signed = loadEventSigner({ EVENT_SIGNING_KEY: generateEventSigningKeys().signingKey })!.sign(
      message,
    );
    expect(loadEventVerifier({}).verify(signed)).toMatchObject({ ok: false, reason: "no_keys" });
  });

  it("refuses to start in production without the key each side needs", () => {
    expect(() => loadEventSigner({ NODE_ENV: "production" })).toThrow(ConfigError);
    expect(() => loadEventVerifier({ NODE_ENV: "production" })).toThrow(/EVENT_VERIFY_KEYS is required/);
  });

  it("never prints a malformed private key", () => {
    const error = (() => {
      try {
        loadEventSigner({ EVENT_SIGNING_KEY: "bm90LWEta2V5LXNlY3JldA==" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toContain("EVENT_SIGNING_KEY");
    expect(error?.message).not.toContain("bm90LWEta2V5LXNlY3JldA==");
  });
});
