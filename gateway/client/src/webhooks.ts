import { base64Decode, base64Encode } from "./base64.js";
import type { components } from "./generated/partner.js";

type Schemas = components["schemas"];

/** The body of a notification, by `event_type` (the document's `webhooks` section). */
export type WebhookEvent =
  | Schemas["TransactionSuccessNotification"]
  | Schemas["TransactionRefundedNotification"]
  | Schemas["TransactionFailedNotification"]
  | Schemas["StatementClosedNotification"]
  | Schemas["BatchCompletedNotification"];

export type WebhookEventType = WebhookEvent["event_type"];

/** Headers as any runtime hands them over: a Fetch `Headers`, or a plain object (Node's `req.headers`). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (default 300, as the platform signs). */
  readonly toleranceSeconds?: number;
  /** The current time (a Date or epoch milliseconds); default the clock. */
  readonly now?: Date | number;
  /** The platform's `WEBHOOK_HEADER_BRAND` (default `SERVICE`): the header is `X-<brand>-Signature`. */
  readonly brand?: string;
}

/** Why a notification was refused. */
export type WebhookVerificationReason =
  | "MISSING_HEADER"
  | "INVALID_SIGNATURE"
  | "TIMESTAMP_OUT_OF_TOLERANCE"
  | "INVALID_BODY";

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/** A verified notification. */
export interface VerifiedWebhook {
  readonly event: WebhookEvent;
  /** `webhook-id`: the event id, stable across retries and redeliveries; deduplicate by it. */
  readonly id: string;
  /** `webhook-timestamp`, epoch seconds of this attempt's signature. */
  readonly timestamp: number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const encoder = new TextEncoder();
/** Bytes backed by a plain ArrayBuffer, as Web Crypto takes them. */
type Bytes = Uint8Array<ArrayBuffer>;
/** Web Crypto's CryptoKey (named through the API: Node's type definitions have no global of that name). */
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/**
 * Verifies a notification over its raw body, exactly the bytes received (never parse and re-serialise
 * first), and answers its typed event. Both signatures must hold: `X-SERVICE-Signature`
 * (base64 HMAC-SHA256 of the body) and the Standard Webhooks `webhook-signature` (HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}`; one of its space-separated `v1,` entries must match), and
 * `webhook-timestamp` must be within the tolerance of now. `secret` may list several secrets (e.g. the new
 * and the old one while you roll a rotation out); each signature may match any of them. Comparisons run
 * in constant time. Throws a `WebhookVerificationError` otherwise.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<VerifiedWebhook> {
  const body: Bytes = typeof rawBody === "string" ? encoder.encode(rawBody) : new Uint8Array(rawBody);
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (secrets.length === 0 || secrets.some((s) => s === "")) {
    throw new TypeError("verifyWebhook needs the config's signing secret");
  }
  const brandHeader = `x-${(options.brand ?? "SERVICE").toLowerCase()}-signature`;
  const serviceSignature = headerOf(headers, brandHeader);
  const id = headerOf(headers, "webhook-id");
  const timestampText = headerOf(headers, "webhook-timestamp");
  const standardSignature = headerOf(headers, "webhook-signature");
  for (const [name, value] of [
    [brandHeader, serviceSignature],
    ["webhook-id", id],
    ["webhook-timestamp", timestampText],
    ["webhook-signature", standardSignature],
  ] as const) {
    if (value === undefined) throw new WebhookVerificationError("MISSING_HEADER", `no ${name} header`);
  }

  const timestamp = Number(timestampText);
  if (!/^\d+$/.test(timestampText!) || !Number.isSafeInteger(timestamp)) {
    throw new WebhookVerificationError(
      "TIMESTAMP_OUT_OF_TOLERANCE",
      "webhook-timestamp is not epoch seconds",
    );
  }
  const nowSeconds = Math.floor(Number(options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      "TIMESTAMP_OUT_OF_TOLERANCE",
      `webhook-timestamp is ${nowSeconds - timestamp} s from now (tolerance ${tolerance} s)`,
    );
  }

  const keys = await Promise.all(secrets.map(hmacKey));
  if (!(await anyMatches(keys, body, [serviceSignature!]))) {
    throw new WebhookVerificationError("INVALID_SIGNATURE", `${brandHeader} does not match the body`);
  }
  const signed = concat(encoder.encode(`${id}.${timestampText}.`), body);
  const candidates = standardSignature!
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => entry.slice(3));
  if (!(await anyMatches(keys, signed, candidates))) {
    throw new WebhookVerificationError("INVALID_SIGNATURE", "no webhook-signature entry matches");
  }

  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError("INVALID_BODY", "the body is not UTF-8 JSON");
  }
  if (!isEvent(event)) {
    throw new WebhookVerificationError("INVALID_BODY", "the body is not a transaction notification");
  }
  return { event, id: id!, timestamp };
}

/**
 * The signature headers of `body` as the platform writes them, for your own tests of a receiver:
 * `X-SERVICE-Signature` (brand as given) and the Standard Webhooks trio.
 */
export async function signWebhook(
  rawBody: string | Uint8Array,
  secret: string,
  { id, timestamp, brand = "SERVICE" }: { id: string; timestamp: number; brand?: string },
): Promise<Record<string, string>> {
  const body: Bytes = typeof rawBody === "string" ? encoder.encode(rawBody) : new Uint8Array(rawBody);
  const key = await hmacKey(secret);
  const service = await hmac(key, body);
  const standard = await hmac(key, concat(encoder.encode(`${id}.${timestamp}.`), body));
  return {
    [`X-${brand}-Signature`]: base64Encode(service),
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `v1,${base64Encode(standard)}`,
  };
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  for (const [key, value] of Object.entries(record)) {
    if (key.toLowerCase() !== name) continue;
    if (typeof value === "string") return value;
    // A header sent twice is ambiguous: refuse it rather than pick one.
    return value?.length === 1 ? value[0] : undefined;
  }
  return undefined;
}

function hmacKey(secret: string): Promise<HmacKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
}

async function hmac(key: HmacKey, message: Bytes): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
}

/** Whether any candidate (base64) is the HMAC of `message` under any key, compared in constant time. */
async function anyMatches(keys: readonly HmacKey[], message: Bytes, candidates: readonly string[]) {
  const decoded = candidates.map(base64Decode);
  let matched = false;
  for (const key of keys) {
    const expected = await hmac(key, message);
    for (const candidate of decoded) {
      // Every pair is compared, so the time does not tell which one matched.
      if (candidate !== undefined && constantTimeEqual(candidate, expected)) matched = true;
    }
  }
  return matched;
}

/** Equal bytes, in time that depends only on the lengths (which are public: an HMAC-SHA256 is 32 bytes). */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

function concat(a: Bytes, b: Bytes): Bytes {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}

const EVENT_STATUS: Readonly<
  Record<Exclude<WebhookEventType, "statement.closed" | "batch.completed">, string>
> = {
  "transaction.success": "SUCCESS",
  "transaction.refunded": "REFUNDED",
  "transaction.failed": "FAILED",
};

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== "object" || value === null) return false;
  const event = value as Record<string, unknown>;
  if (event.event_type === "statement.closed") {
    return typeof event.statement_id === "string" && typeof event.event_id === "string";
  }
  if (event.event_type === "batch.completed") {
    return (
      typeof event.batch_id === "string" &&
      typeof event.counts === "object" &&
      event.counts !== null &&
      typeof event.event_id === "string"
    );
  }
  const status = EVENT_STATUS[event.event_type as keyof typeof EVENT_STATUS];
  return (
    status !== undefined &&
    event.status === status &&
    typeof event.tx_id === "string" &&
    typeof event.event_id === "string"
  );
}
