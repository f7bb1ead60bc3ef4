/**
 * A partner's verification of a notification, written from the receiver guide in
 * services/webhooks/README.md and sharing no code with the dispatcher: both signatures over the raw
 * bytes as received, compared in constant time.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The Standard Webhooks libraries' replay window. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

export interface SignedNotification {
  /** The receiver's copy of the secret configured for this partner. */
  readonly secret: string;
  readonly rawBody: Buffer;
  /** Values of `X-SERVICE-Signature`, `webhook-id`, `webhook-timestamp`, `webhook-signature`. */
  readonly serviceSignature: string | undefined;
  readonly webhookId: string | undefined;
  readonly webhookTimestamp: string | undefined;
  readonly webhookSignature: string | undefined;
  readonly nowSeconds: number;
}

export interface SignatureVerdict {
  readonly service: boolean;
  readonly standard: boolean;
}

export function verifySignatures(n: SignedNotification): SignatureVerdict {
  return { service: verifyService(n), standard: verifyStandard(n) };
}

/** `X-SERVICE-Signature` = base64(HMAC-SHA256(UTF-8 secret, raw body)). */
function verifyService(n: SignedNotification): boolean {
  if (n.serviceSignature === undefined) return false;
  const expected = createHmac("sha256", n.secret).update(n.rawBody).digest();
  return sameBytes(expected, Buffer.from(n.serviceSignature, "base64"), n.serviceSignature);
}

/**
 * Standard Webhooks: a fresh `webhook-timestamp`, and one of the space-separated `v1,<base64>` entries
 * of `webhook-signature` equal to HMAC-SHA256(secret, "{id}.{timestamp}." + raw body).
 */
function verifyStandard(n: SignedNotification): boolean {
  const { webhookId: id, webhookTimestamp: timestamp, webhookSignature: signatures } = n;
  if (!id || timestamp === undefined || signatures === undefined || !/^\d{1,15}$/.test(timestamp))
    return false;
  if (Math.abs(n.nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) return false;
  const expected = createHmac("sha256", n.secret)
    .update(`${id}.${timestamp}.`, "utf8")
    .update(n.rawBody)
    .digest();
  return signatures.split(" ").some((entry) => {
    const [version, value] = entry.split(",", 2);
    return (
      version === "v1" && value !== undefined && sameBytes(expected, Buffer.from(value, "base64"), value)
    );
  });
}

/** Constant-time equality that also refuses base64 that does not round-trip (junk decodes to bytes too). */
function sameBytes(expected: Buffer, received: Buffer, text: string): boolean {
  return (
    received.length === expected.length &&
    received.toString("base64") === text &&
    timingSafeEqual(received, expected)
  );
}
