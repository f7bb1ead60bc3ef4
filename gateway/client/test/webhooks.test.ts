import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook, WebhookVerificationError } from "../src/webhooks.js";

// The test vector pinned by the dispatcher (services/webhooks/README.md, services/webhooks/src/signing/signature.test.ts).
const SECRET = "partner-webhook-secret";
const VECTOR_BODY = '{"tx_id":"tx_01HQ","status":"SUCCESS","fee":0.50}';
const VECTOR_HEADERS = {
  "X-SERVICE-Signature": "4AbbxHPz7+vXZISqBbGriE6Hzq68N7u+32S+UgGqcww=",
  "webhook-id": "evt_1",
  "webhook-timestamp": "1700000000",
  "webhook-signature": "v1,JSQq/wO3+WMtA6RZ6gUxuO2kD75Pgcv6t3NvLcQkmgE=",
};
const NOW = 1_700_000_000_000;

const EVENT_BODY = JSON.stringify({
  tx_id: "tx_01HQ",
  status: "SUCCESS",
  amount: 54.0,
  fee: 0.45,
  event_id: "evt_1",
  event_type: "transaction.success",
  occurred_at: "2023-11-14T22:13:20.000Z",
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe("signWebhook", () => {
  it("reproduces the dispatcher's pinned test vector", async () => {
    expect(await signWebhook(VECTOR_BODY, SECRET, { id: "evt_1", timestamp: 1_700_000_000 })).toEqual(
      VECTOR_HEADERS,
    );
  });
});

describe("verifyWebhook", () => {
  it("checks both signatures of the pinned vector (and refuses its body as not a notification)", async () => {
    // Both signatures hold; the vector's body lacks event_id and event_type, so it is no event.
    expect(await refusal(verifyWebhook(VECTOR_BODY, VECTOR_HEADERS, SECRET, { now: NOW }))).toBe(
      "INVALID_BODY",
    );
    expect(
      await refusal(verifyWebhook(VECTOR_BODY, VECTOR_HEADERS, "another-secret-0000", { now: NOW })),
    ).toBe("INVALID_SIGNATURE");
  });

  it("answers the typed event of a notification signed as the dispatcher signs it", async () => {
    const headers = await signWebhook(EVENT_BODY, SECRET, { id: "evt_1", timestamp: 1_700_000_000 });
    const verified = await verifyWebhook(new TextEncoder().encode(EVENT_BODY), new Headers(headers), SECRET, {
      now: new Date(NOW + 299_000),
    });
    expect(verified).toEqual({ id: "evt_1", timestamp: 1_700_000_000, event: JSON.parse(EVENT_BODY) });
    if (verified.event.event_type === "transaction.success") expect(verified.event.status).toBe("SUCCESS");
  });

  it("refuses a body changed by one byte, under either signature", async () => {
    const headers = await signWebhook(EVENT_BODY, SECRET, { id: "evt_1", timestamp: 1_700_000_000 });
    const tampered = EVENT_BODY.replace('"fee":0.45', '"fee":0.46');
    expect(await refusal(verifyWebhook(tampered, headers, SECRET, { now: NOW }))).toBe("INVALID_SIGNATURE");
    // A valid X-SERVICE-Signature does not excuse a wrong Standard Webhooks signature, nor the reverse.
    const other = await signWebhook(EVENT_BODY, SECRET, { id: "evt_2", timestamp: 1_700_000_000 });
    const mixed = { ...headers, "webhook-signature": other["webhook-signature"]! };
    expect(await refusal(verifyWebhook(EVENT_BODY, mixed, SECRET, { now: NOW }))).toBe("INVALID_SIGNATURE");
    const wrongService = { ...headers, "X-SERVICE-Signature": VECTOR_HEADERS["X-SERVICE-Signature"] };
    expect(await refusal(verifyWebhook(EVENT_BODY, wrongService, SECRET, { now: NOW }))).toBe(
      "INVALID_SIGNATURE",
    );
  });

  it("refuses a timestamp outside the tolerance, in either direction", async () => {
    const headers = await signWebhook(EVENT_BODY, SECRET, { id: "evt_1", timestamp: 1_700_000_000 });
    for (const now of [NOW + 301_000, NOW - 301_000]) {
      expect(await refusal(verifyWebhook(EVENT_BODY, headers, SECRET, { now }))).toBe(
        "TIMESTAMP_OUT_OF_TOLERANCE",
      );
    }
    await expect(
      verifyWebhook(EVENT_BODY, headers, SECRET, { now: NOW + 3_600_000, toleranceSeconds: 3_600 }),
    ).resolves.toMatchObject({ id: "evt_1" });
    const garbled = { ...headers, "webhook-timestamp": "1700000000.5" };
    expect(await refusal(verifyWebhook(EVENT_BODY, garbled, SECRET, { now: NOW }))).toBe(
      "TIMESTAMP_OUT_OF_TOLERANCE",
    );
  });

  it("accepts any entry of webhook-signature during a rotation, and any of several secrets", async () => {
    const oldSecret = "the-old-secret-0123456789";
    const current = await signWebhook(EVENT_BODY, SECRET, { id: "evt_1", timestamp: 1_700_000_000 });
    const previous = await signWebhook(EVENT_BODY, oldSecret, { id: "evt_1", timestamp: 1_700_000_000 });
    // The platform during a grace period: X-SERVICE-Signature with the new secret, both in webhook-signature.
    const rotating = {
      ...current,
      "webhook-signature": `${current["webhook-signature"]} ${previous["webhook-signature"]}`,
    };
    await expect(verifyWebhook(EVENT_BODY, rotating, SECRET, { now: NOW })).resolves.toBeDefined();
    // A receiver that only knows the old secret fails X-SERVICE-Signature; given both, it passes.
    expect(await refusal(verifyWebhook(EVENT_BODY, rotating, oldSecret, { now: NOW }))).toBe(
      "INVALID_SIGNATURE",
    );
    await expect(
      verifyWebhook(EVENT_BODY, rotating, [oldSecret, SECRET], { now: NOW }),
    ).resolves.toBeDefined();
  });

  it("reads Node's lower-case header object and a custom brand; refuses missing or repeated headers", async () => {
    const headers = await signWebhook(EVENT_BODY, SECRET, {
      id: "evt_1",
      timestamp: 1_700_000_000,
      brand: "ACME",
    });
    const nodeStyle = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    await expect(
      verifyWebhook(EVENT_BODY, nodeStyle, SECRET, { now: NOW, brand: "ACME" }),
    ).resolves.toBeDefined();
    expect(await refusal(verifyWebhook(EVENT_BODY, nodeStyle, SECRET, { now: NOW }))).toBe("MISSING_HEADER");
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
      const { [name]: _dropped, ...rest } = nodeStyle;
      expect(await refusal(verifyWebhook(EVENT_BODY, rest, SECRET, { now: NOW, brand: "ACME" }))).toBe(
        "MISSING_HEADER",
      );
    }
    const repeated = { ...nodeStyle, "webhook-id": ["evt_1", "evt_2"] };
    expect(await refusal(verifyWebhook(EVENT_BODY, repeated, SECRET, { now: NOW, brand: "ACME" }))).toBe(
      "MISSING_HEADER",
    );
  });

  it("refuses signatures that are not base64 without throwing anything else", async () => {
    const headers = await signWebhook(EVENT_BODY, SECRET, { id: "evt_1", timestamp: 1_700_000_000 });
    const garbage = { ...headers, "X-SERVICE-Signature": "not base64!!", "webhook-signature": "v1,@@@ v2,x" };
    expect(await refusal(verifyWebhook(EVENT_BODY, garbage, SECRET, { now: NOW }))).toBe("INVALID_SIGNATURE");
  });
});
