/**
 * Signing of outbound notifications and the headers that go with them.
 *
 * Two signatures cover the same body bytes with the same key (the UTF-8 bytes of the configured secret):
 * - `X-<BRAND>-Signature` = base64(HMAC-SHA256(secret, body)), the partner API's contract;
 * - the Standard Webhooks trio, `webhook-signature` = `v1,` + base64(HMAC-SHA256(secret, "id.ts.body")),
 *   whose signed timestamp lets receivers refuse replays. Standard Webhooks libraries take the key as
 *   `standardWebhookSecret(secret)` (`whsec_` + base64 of the same bytes).
 *
 * During a secret rotation's grace period `webhook-signature` carries one entry per active secret (the
 * current one first), so receivers verifying it may switch to the new secret at any time in that period.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { type BasicAuth, validateBasicAuth } from "../domain/config-rules.js";
import { fail, ok, type Result } from "../domain/result.js";

/** A configured secret: text is keyed by its UTF-8 bytes. */
export type WebhookSecret = string | Uint8Array;

export const DEFAULT_HEADER_BRAND = "SERVICE";

/** How far a Standard Webhooks timestamp may be from the verifier's clock (the official libraries' 5 min). */
export const DEFAULT_TIMESTAMP_TOLERANCE_SECONDS = 300;

/** base64(HMAC-SHA256(secret, body)): the value of `X-<BRAND>-Signature`. */
export function serviceSignature(secret: WebhookSecret, body: Uint8Array): string {
  return createHmac("sha256", secret).update(body).digest("base64");
}

/** `v1,` + base64(HMAC-SHA256(secret, `${id}.${timestampSeconds}.` + body)): one `webhook-signature` entry. */
export function standardWebhookSignature(
  secret: WebhookSecret,
  id: string,
  timestampSeconds: number,
  body: Uint8Array,
): string {
  assertMessageId(id);
  assertUnixSeconds(timestampSeconds);
  const mac = createHmac("sha256", secret).update(`${id}.${timestampSeconds}.`, "utf8").update(body);
  return `v1,${mac.digest("base64")}`;
}

/** The secret in the `whsec_<base64>` form that Standard Webhooks libraries expect. */
export function standardWebhookSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, "utf8").toString("base64")}`;
}

/** Receiver side of `X-<BRAND>-Signature`: compares in constant time; a missing header never verifies. */
export function verifyServiceSignature(
  secret: WebhookSecret,
  body: Uint8Array,
  signature: string | undefined,
): boolean {
  return signature !== undefined && constantTimeEqual(serviceSignature(secret, body), signature);
}

export interface StandardWebhookVerification {
  readonly secret: WebhookSecret;
  readonly body: Uint8Array;
  /** Values of the `webhook-id`, `webhook-timestamp` and `webhook-signature` headers. */
  readonly id: string | undefined;
  readonly timestamp: string | undefined;
  readonly signatures: string | undefined;
  readonly nowSeconds: number;
  readonly toleranceSeconds?: number;
}

/** Receiver side of the Standard Webhooks trio: fresh timestamp and at least one matching `v1` entry. */
export function verifyStandardWebhookSignature(input: StandardWebhookVerification): boolean {
  const { id, timestamp, signatures } = input;
  if (id === undefined || timestamp === undefined || signatures === undefined) return false;
  if (!/^\d{1,15}$/.test(timestamp) || id === "" || id.includes(".")) return false;
  const seconds = Number(timestamp);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TIMESTAMP_TOLERANCE_SECONDS;
  if (Math.abs(input.nowSeconds - seconds) > tolerance) return false;
  const expected = standardWebhookSignature(input.secret, id, seconds, input.body);
  return signatures.split(" ").some((entry) => constantTimeEqual(expected, entry));
}

/** `Basic base64(username:password)`, UTF-8 as RFC 7617 allows. */
export function basicAuthorization({ username, password }: BasicAuth): string {
  const invalid = validateBasicAuth({ username, password });
  if (!invalid.ok) throw new RangeError(invalid.error.message);
  return `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;
}

/** `WEBHOOK_HEADER_BRAND` becomes part of header names, so it must be an HTTP token without dots. */
export function validateHeaderBrand(brand: string): Result<string> {
  if (/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/.test(brand)) return ok(brand);
  return fail(
    "INVALID_CONFIG",
    `WEBHOOK_HEADER_BRAND must be letters and digits, optionally joined by single hyphens; got ${JSON.stringify(brand)}`,
    "WEBHOOK_HEADER_BRAND",
  );
}

export interface DeliveryHeaderInput {
  /** Word used in header names and the User-Agent; defaults to `SERVICE`. */
  readonly brand?: string;
  readonly appVersion: string;
  readonly secret?: WebhookSecret | undefined;
  /**
   * Secrets a rotation replaced that are still in their grace period: each adds a `webhook-signature` entry
   * after the current secret's. `X-<BRAND>-Signature` carries the current secret's signature only.
   */
  readonly previousSecrets?: readonly WebhookSecret[] | undefined;
  readonly basicAuth?: BasicAuth | undefined;
  readonly eventId: string;
  readonly eventType: string;
  /** 1 for the first attempt; counts every try, manual redeliveries included. */
  readonly attempt: number;
  /** Time of this attempt: signed into `webhook-timestamp`, so headers are rebuilt for every attempt. */
  readonly nowSeconds: number;
  /** The exact bytes that will be sent. */
  readonly body: Uint8Array;
}

/** Headers of one delivery attempt; the body itself is never touched. */
export function buildDeliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  const brand = checkedBrand(input.brand ?? DEFAULT_HEADER_BRAND);
  assertHeaderText(input.appVersion, "appVersion");
  assertHeaderText(input.eventType, "eventType");
  assertMessageId(input.eventId);
  if (!Number.isSafeInteger(input.attempt) || input.attempt < 1) {
    throw new RangeError(`attempt must be a positive integer, got ${input.attempt}`);
  }
  return {
    "Content-Type": "application/json",
    "User-Agent": `${brand}-Webhook/${input.appVersion}`,
    ...(input.basicAuth === undefined ? {} : { Authorization: basicAuthorization(input.basicAuth) }),
    [`X-${brand}-Event-Id`]: input.eventId,
    [`X-${brand}-Event-Type`]: input.eventType,
    [`X-${brand}-Attempt`]: String(input.attempt),
    ...(input.secret === undefined ? {} : signatureHeaders(brand, input.secret, input)),
  };
}

function signatureHeaders(
  brand: string,
  secret: WebhookSecret,
  input: DeliveryHeaderInput,
): Record<string, string> {
  return {
    [`X-${brand}-Signature`]: serviceSignature(secret, input.body),
    "webhook-id": input.eventId,
    "webhook-timestamp": String(input.nowSeconds),
    // Standard Webhooks: several space-separated entries; a receiver accepts the message if any one verifies.
    "webhook-signature": [secret, ...(input.previousSecrets ?? [])]
      .map((key) => standardWebhookSignature(key, input.eventId, input.nowSeconds, input.body))
      .join(" "),
  };
}

function checkedBrand(brand: string): string {
  const result = validateHeaderBrand(brand);
  if (!result.ok) throw new RangeError(result.error.message);
  return result.value;
}

// The id is signed as `id.ts.body`: a dot in it would make two different (id, ts) pairs sign the same text.
function assertMessageId(id: string): void {
  assertHeaderText(id, "event id");
  if (id.includes(".")) throw new RangeError(`event id must not contain ".", got ${JSON.stringify(id)}`);
}

function assertUnixSeconds(seconds: number): void {
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new RangeError(`timestamp must be whole non-negative Unix seconds, got ${seconds}`);
  }
}

// Visible ASCII only: anything else would be rejected by the HTTP client or could split headers.
function assertHeaderText(value: string, name: string): void {
  if (!/^[\x21-\x7e]+$/.test(value))
    throw new RangeError(`${name} is not a valid header value: ${JSON.stringify(value)}`);
}

function constantTimeEqual(expected: string, received: string): boolean {
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(received, "utf8");
  // Lengths are public (a SHA-256 base64 is always 44 characters); only the content is compared in constant time.
  return a.length === b.length && timingSafeEqual(a, b);
}
