import { describe, expect, it } from "vitest";
import { validateBasicAuth } from "../domain/config-rules.js";
import {
  basicAuthorization,
  buildDeliveryHeaders,
  serviceSignature,
  standardWebhookSecret,
  standardWebhookSignature,
  validateHeaderBrand,
  verifyServiceSignature,
  verifyStandardWebhookSignature,
} from "./signature.js";

// Published test vectors. Every expected value was computed outside this code with
//   printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -binary | base64
// (and, for the Standard Webhooks vector, `-mac HMAC -macopt hexkey:<base64-decoded whsec key>`).
const SECRET = "partner-webhook-secret";
const BODY = Buffer.from('{"tx_id":"tx_01HQ","status":"SUCCESS","fee":0.50}', "utf8");

describe("serviceSignature test vectors", () => {
  it.each([
    [SECRET, BODY, "4AbbxHPz7+vXZISqBbGriE6Hzq68N7u+32S+UgGqcww="],
    [SECRET, Buffer.alloc(0), "jlVTKxjm9ahfluby77W3XqCj4zxa0rzTAABcwVO5mKA="],
    ["clé-secrète", Buffer.from('{"name":"Peña"}', "utf8"), "PQRTGVP1wiVYShMJiy+pbGocB3Fe2x1k9lzbxeU6s84="],
  ])("secret %j over %s", (secret, body, expected) => {
    expect(serviceSignature(secret, body)).toBe(expected);
  });

  it("signs the bytes, so a re-serialised body no longer matches", () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(BODY.toString("utf8"))), "utf8");
    expect(reserialised.toString()).toContain('"fee":0.5}');
    expect(serviceSignature(SECRET, reserialised)).not.toBe("4AbbxHPz7+vXZISqBbGriE6Hzq68N7u+32S+UgGqcww=");
  });
});

describe("standardWebhookSignature test vectors", () => {
  it("matches the Standard Webhooks specification example (whsec key, base64-decoded)", () => {
    const key = Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64");
    const body = Buffer.from('{"test": 2432232314}', "utf8");
    expect(standardWebhookSignature(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body)).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    );
  });

  it("signs id.timestamp.body with the secret's UTF-8 bytes", () => {
    expect(standardWebhookSignature(SECRET, "evt_1", 1_700_000_000, BODY)).toBe(
      "v1,JSQq/wO3+WMtA6RZ6gUxuO2kD75Pgcv6t3NvLcQkmgE=",
    );
  });

  it("publishes the secret in the whsec_ form that decodes to the same key bytes", () => {
    const whsec = standardWebhookSecret(SECRET);
    expect(whsec).toBe("whsec_cGFydG5lci13ZWJob29rLXNlY3JldA==");
    const key = Buffer.from(whsec.slice("whsec_".length), "base64");
    expect(standardWebhookSignature(key, "evt_1", 1_700_000_000, BODY)).toBe(
      standardWebhookSignature(SECRET, "evt_1", 1_700_000_000, BODY),
    );
  });

  it.each([
    ["evt.1", 1],
    ["", 1],
    ["evt_1", -1],
    ["evt_1", 1.5],
  ])("refuses id %j with timestamp %s", (id, ts) => {
    expect(() => standardWebhookSignature(SECRET, id, ts, BODY)).toThrow(RangeError);
  });
});

describe("verifyServiceSignature", () => {
  const good = "4AbbxHPz7+vXZISqBbGriE6Hzq68N7u+32S+UgGqcww=";
  it.each([
    [good, true],
    [undefined, false],
    ["", false],
    [good.replace("4", "5"), false],
    [`${good} `, false],
    [good.slice(0, -1), false],
    [Buffer.from(good, "base64").toString("hex"), false],
  ])("%j → %s", (signature, expected) => {
    expect(verifyServiceSignature(SECRET, BODY, signature)).toBe(expected);
  });

  it("fails with another secret or one changed byte of body", () => {
    expect(verifyServiceSignature("other", BODY, good)).toBe(false);
    const tampered = Buffer.from(BODY);
    tampered[tampered.length - 2] = 0x31;
    expect(verifyServiceSignature(SECRET, tampered, good)).toBe(false);
  });
});

describe("verifyStandardWebhookSignature", () => {
  const signed = {
    secret: SECRET,
    body: BODY,
    id: "evt_1",
    timestamp: "1700000000",
    nowSeconds: 1_700_000_000,
  };
  const signature = "v1,JSQq/wO3+WMtA6RZ6gUxuO2kD75Pgcv6t3NvLcQkmgE=";

  it.each([
    ["the signature alone", { signatures: signature }, true],
    ["a list with one good entry", { signatures: `v1,bm9wZQ== ${signature} v1a,xyz` }, true],
    ["a timestamp 300 s old", { signatures: signature, nowSeconds: 1_700_000_300 }, true],
    ["a timestamp 301 s old", { signatures: signature, nowSeconds: 1_700_000_301 }, false],
    ["a timestamp 301 s ahead", { signatures: signature, nowSeconds: 1_699_999_699 }, false],
    ["a wider tolerance", { signatures: signature, nowSeconds: 1_700_000_900, toleranceSeconds: 900 }, true],
    ["another id", { signatures: signature, id: "evt_2" }, false],
    ["a non-numeric timestamp", { signatures: signature, timestamp: "1700000000.0" }, false],
    ["no signature header", { signatures: undefined }, false],
    ["no id header", { signatures: signature, id: undefined }, false],
    ["the bare base64 without v1,", { signatures: signature.slice(3) }, false],
  ])("with %s → %s", (_name, overrides, expected) => {
    expect(verifyStandardWebhookSignature({ ...signed, ...overrides })).toBe(expected);
  });
});

describe("basicAuthorization", () => {
  it("encodes user:password, keeping colons in the password", () => {
    // printf '%s' 'user:p@ss:word' | base64
    expect(basicAuthorization({ username: "user", password: "p@ss:word" })).toBe(
      "Basic dXNlcjpwQHNzOndvcmQ=",
    );
  });

  it("encodes non-ASCII credentials as UTF-8", () => {
    const header = basicAuthorization({ username: "josé", password: "ñ" });
    expect(Buffer.from(header.slice("Basic ".length), "base64").toString("utf8")).toBe("josé:ñ");
  });

  it.each([
    [{ username: "a:b", password: "x" }, /colon/],
    [{ username: "", password: "x" }, /non-empty/],
    [{ username: "a", password: "x\r\ny" }, /control/],
  ])("refuses %j", (auth, message) => {
    const result = validateBasicAuth(auth);
    expect(result.ok ? "" : `${result.error.field} ${result.error.message}`).toMatch(message);
    expect(() => basicAuthorization(auth)).toThrow(message);
  });
});

describe("validateHeaderBrand", () => {
  it.each(["SERVICE", "Acme", "ACME-PAY", "P2"])("accepts %j", (brand) => {
    expect(validateHeaderBrand(brand)).toEqual({ ok: true, value: brand });
  });

  it.each(["", "ACME PAY", "ACME_PAY", "-ACME", "ACME--PAY", "ACME.PAY", "ACMÉ", "A\r\nB"])(
    "refuses %j",
    (brand) => {
      const result = validateHeaderBrand(brand);
      expect(result.ok).toBe(false);
      expect(result.ok ? "" : result.error.message).toContain("WEBHOOK_HEADER_BRAND");
    },
  );
});

describe("buildDeliveryHeaders", () => {
  const base = {
    appVersion: "0.1.0",
    eventId: "evt_1",
    eventType: "transaction.success",
    attempt: 1,
    nowSeconds: 1_700_000_000,
    body: BODY,
  };

  it("without secret or basic auth sends no signature and no credentials", () => {
    expect(buildDeliveryHeaders(base)).toEqual({
      "Content-Type": "application/json",
      "User-Agent": "SERVICE-Webhook/0.1.0",
      "X-SERVICE-Event-Id": "evt_1",
      "X-SERVICE-Event-Type": "transaction.success",
      "X-SERVICE-Attempt": "1",
    });
  });

  it("with a secret adds X-SERVICE-Signature and the Standard Webhooks trio", () => {
    expect(buildDeliveryHeaders({ ...base, secret: SECRET, attempt: 3 })).toEqual({
      "Content-Type": "application/json",
      "User-Agent": "SERVICE-Webhook/0.1.0",
      "X-SERVICE-Event-Id": "evt_1",
      "X-SERVICE-Event-Type": "transaction.success",
      "X-SERVICE-Attempt": "3",
      "X-SERVICE-Signature": "4AbbxHPz7+vXZISqBbGriE6Hzq68N7u+32S+UgGqcww=",
      "webhook-id": "evt_1",
      "webhook-timestamp": "1700000000",
      "webhook-signature": "v1,JSQq/wO3+WMtA6RZ6gUxuO2kD75Pgcv6t3NvLcQkmgE=",
    });
  });

  it("with basic auth adds the Authorization header", () => {
    const headers = buildDeliveryHeaders({ ...base, basicAuth: { username: "user", password: "p@ss:word" } });
    expect(headers.Authorization).toBe("Basic dXNlcjpwQHNzOndvcmQ=");
    expect(headers).not.toHaveProperty("X-SERVICE-Signature");
  });

  it("uses the brand in every branded header name and the User-Agent", () => {
    const headers = buildDeliveryHeaders({ ...base, brand: "ACME", secret: SECRET });
    expect(Object.keys(headers).filter((name) => name.includes("ACME"))).toEqual([
      "X-ACME-Event-Id",
      "X-ACME-Event-Type",
      "X-ACME-Attempt",
      "X-ACME-Signature",
    ]);
    expect(headers["User-Agent"]).toBe("ACME-Webhook/0.1.0");
    expect(Object.keys(headers).some((name) => name.includes("SERVICE"))).toBe(false);
  });

  it("produces headers a receiver verifies against the same bytes", () => {
    const headers = buildDeliveryHeaders({ ...base, secret: SECRET });
    expect(verifyServiceSignature(SECRET, BODY, headers["X-SERVICE-Signature"])).toBe(true);
    const verified = verifyStandardWebhookSignature({
      secret: SECRET,
      body: BODY,
      id: headers["webhook-id"],
      timestamp: headers["webhook-timestamp"],
      signatures: headers["webhook-signature"],
      nowSeconds: 1_700_000_010,
    });
    expect(verified).toBe(true);
  });

  it("during a rotation's grace period signs webhook-signature with both secrets, the current one first", () => {
    const previous = "the-previous-signing-secret";
    const headers = buildDeliveryHeaders({ ...base, secret: SECRET, previousSecrets: [previous] });
    const entries = headers["webhook-signature"]!.split(" ");
    expect(entries).toEqual([
      "v1,JSQq/wO3+WMtA6RZ6gUxuO2kD75Pgcv6t3NvLcQkmgE=",
      standardWebhookSignature(previous, "evt_1", 1_700_000_000, BODY),
    ]);
    // The partner API's single-valued header carries the current secret's signature only.
    expect(headers["X-SERVICE-Signature"]).toBe("4AbbxHPz7+vXZISqBbGriE6Hzq68N7u+32S+UgGqcww=");
    for (const secret of [SECRET, previous]) {
      const verified = verifyStandardWebhookSignature({
        secret,
        body: BODY,
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signatures: headers["webhook-signature"],
        nowSeconds: 1_700_000_010,
      });
      expect(verified, secret).toBe(true);
    }
  });

  it.each([
    [{ attempt: 0 }, /attempt/],
    [{ attempt: 1.5 }, /attempt/],
    [{ brand: "AC ME" }, /WEBHOOK_HEADER_BRAND/],
    [{ appVersion: "1.0\r\nX-Evil: 1" }, /appVersion/],
    [{ eventId: "evt.1" }, /event id/],
    [{ secret: SECRET, nowSeconds: 1_700_000_000.5 }, /timestamp/],
    [{ basicAuth: { username: "a:b", password: "" } }, /colon/],
  ])("refuses %j", (overrides, message) => {
    expect(() => buildDeliveryHeaders({ ...base, ...overrides })).toThrow(message);
  });
});
