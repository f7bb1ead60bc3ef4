/**
 * The signature of the payout rail's callback (the gateway's `POST /callbacks/rail`), shared by the sandbox
 * rail that signs and the gateway that checks:
 *
 *   X-Rail-Timestamp: Unix time of sending, in whole seconds
 *   X-Rail-Signature: base64(HMAC-SHA256(RAIL_CALLBACK_SECRET, "<timestamp>.<exact body bytes>"))
 *
 * The timestamp is inside the signed bytes, so a captured callback cannot be replayed later than the
 * receiver's tolerance, and a fresh timestamp cannot be put on an old body without the secret. A rail
 * signs each attempt anew, so a retry is never stale.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const RAIL_TIMESTAMP_HEADER = "x-rail-timestamp";
export const RAIL_SIGNATURE_HEADER = "x-rail-signature";

const TIMESTAMP = /^\d{1,12}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The least key length: an HMAC-SHA256 key shorter than its 32-byte output is weaker than the hash. */
export const RAIL_CALLBACK_SECRET_MIN_BYTES = 32;

/** Config parser of `RAIL_CALLBACK_SECRET`, shared by the gateway and the sandbox rail. */
export function parseRailCallbackSecret(raw: string): string {
  const bytes = Buffer.byteLength(raw, "utf8");
  if (bytes < RAIL_CALLBACK_SECRET_MIN_BYTES) {
    throw new Error(
      `must be at least ${RAIL_CALLBACK_SECRET_MIN_BYTES} bytes (got ${bytes}); generate one with \`openssl rand -base64 32\``,
    );
  }
  return raw;
}

export function railCallbackTimestamp(now: Date): string {
  return String(Math.floor(now.getTime() / 1000));
}

export function railCallbackSignature(secret: string, timestamp: string, body: string | Uint8Array): string {
  return signatureBytes(secret, timestamp, body).toString("base64");
}

/**
 * "invalid": a header is missing or malformed, or the signature does not match (checked in constant
 * time); "stale": authentic, but its timestamp is further than `toleranceMs` from `now`, either way.
 */
export type RailSignatureCheck = "valid" | "invalid" | "stale";

export function checkRailCallbackSignature(
  secret: string,
  headers: { readonly timestamp: unknown; readonly signature: unknown },
  body: Uint8Array,
  now: Date,
  toleranceMs: number,
): RailSignatureCheck {
  const { timestamp, signature } = headers;
  if (typeof timestamp !== "string" || !TIMESTAMP.test(timestamp)) return "invalid";
  if (typeof signature !== "string" || !BASE64.test(signature)) return "invalid";
  const expected = signatureBytes(secret, timestamp, body);
  const given = Buffer.from(signature, "base64");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
  const skewMs = Math.abs(now.getTime() - Number(timestamp) * 1000);
  return skewMs > toleranceMs ? "stale" : "valid";
}

function signatureBytes(secret: string, timestamp: string, body: string | Uint8Array): Buffer {
  return createHmac("sha256", secret).update(`${timestamp}.`, "utf8").update(body).digest();
}
