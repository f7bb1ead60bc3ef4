import { describe, expect, it } from "vitest";
import { type SignedNotification, verifySignatures } from "./webhook-signatures.js";

// The test vector of services/webhooks/README.md ("For receivers").
const VECTOR: SignedNotification = {
  secret: "partner-webhook-secret",
  rawBody: Buffer.from('{"tx_id":"tx_01HQ","status":"SUCCESS","fee":0.50}'),
  serviceSignature: "4AbbxHPz7+vXZISqBbGriE6Hzq68N7u+32S+UgGqcww=",
  webhookId: "evt_1",
  webhookTimestamp: "1700000000",
  webhookSignature: "v1,JSQq/wO3+WMtA6RZ6gUxuO2kD75Pgcv6t3NvLcQkmgE=",
  nowSeconds: 1_700_000_010,
};

describe("verifySignatures", () => {
  it("accepts the README's test vector", () => {
    expect(verifySignatures(VECTOR)).toEqual({ service: true, standard: true });
  });

  it("refuses both signatures when one byte of the body changed (0.50 re-serialised as 0.5)", () => {
    const reserialised = Buffer.from('{"tx_id":"tx_01HQ","status":"SUCCESS","fee":0.5}');
    expect(verifySignatures({ ...VECTOR, rawBody: reserialised })).toEqual({
      service: false,
      standard: false,
    });
  });

  it("refuses another secret", () => {
    expect(verifySignatures({ ...VECTOR, secret: "partner-webhook-secreT" })).toEqual({
      service: false,
      standard: false,
    });
  });

  it("refuses missing headers", () => {
    expect(
      verifySignatures({
        ...VECTOR,
        serviceSignature: undefined,
        webhookId: undefined,
        webhookTimestamp: undefined,
        webhookSignature: undefined,
      }),
    ).toEqual({ service: false, standard: false });
  });

  it("refuses a Standard Webhooks timestamp more than 5 minutes away, either way", () => {
    expect(verifySignatures({ ...VECTOR, nowSeconds: 1_700_000_301 }).standard).toBe(false);
    expect(verifySignatures({ ...VECTOR, nowSeconds: 1_699_999_699 }).standard).toBe(false);
    expect(verifySignatures({ ...VECTOR, nowSeconds: 1_700_000_300 }).standard).toBe(true);
  });

  it("refuses a signature bound to another id or timestamp", () => {
    expect(verifySignatures({ ...VECTOR, webhookId: "evt_2" }).standard).toBe(false);
    expect(verifySignatures({ ...VECTOR, webhookTimestamp: "1700000001" }).standard).toBe(false);
  });

  it("accepts when any of several space-separated entries matches (secret rotation), v1 only", () => {
    const good = VECTOR.webhookSignature!;
    const other = "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    expect(verifySignatures({ ...VECTOR, webhookSignature: `${other} ${good}` }).standard).toBe(true);
    expect(verifySignatures({ ...VECTOR, webhookSignature: other }).standard).toBe(false);
    expect(verifySignatures({ ...VECTOR, webhookSignature: good.replace("v1,", "v2,") }).standard).toBe(
      false,
    );
  });

  it("refuses a base64 signature with junk appended", () => {
    expect(verifySignatures({ ...VECTOR, serviceSignature: `${VECTOR.serviceSignature}!!` }).service).toBe(
      false,
    );
  });
});
