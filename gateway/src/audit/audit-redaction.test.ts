import { describe, expect, it } from "vitest";
import { isSecretName, REDACTED, redactSecrets } from "./audit-redaction.js";

describe("audit redaction", () => {
  it("recognises the secrets admin bodies carry, whatever their spelling", () => {
    for (const name of [
      "password",
      "new_password",
      "client_secret",
      "clientSecret",
      "signing_secret",
      "webhook-secret",
      "access_token",
      "id_token",
      "totp",
      "totp_code",
      "otp",
      "api_key",
      "X-Api-Key",
      "private_key",
      "authorization",
      "code_verifier",
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of [
      "name",
      "amount_usd",
      "reference",
      "username",
      "secret_id",
      "token_ids",
      "footprint",
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it("replaces secret values at any depth and leaves the rest and the input as they were", () => {
    const body = { name: "a", basic_auth: { username: "u", password: "p" }, list: [{ token: "t", n: 1 }] };
    expect(redactSecrets(body)).toEqual({
      name: "a",
      basic_auth: { username: "u", password: REDACTED },
      list: [{ token: REDACTED, n: 1 }],
    });
    expect(body.basic_auth.password).toBe("p");
    expect(redactSecrets("text")).toBe("text");
    expect(redactSecrets(null)).toBeNull();
  });
});
