/**
 * The fingerprint that tells a replay from a reused idempotency key (IETF idempotency-key draft): SHA-256
 * over the route, the canonical JSON of the body and every query parameter that changes the answer
 * (`dp`, since a replay repeats the first response byte for byte).
 */
import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth and no whitespace: equal data, equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`no canonical JSON for ${typeof value}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function requestFingerprint(
  route: string,
  body: unknown,
  params: Readonly<Record<string, unknown>>,
): string {
  return createHash("sha256")
    .update(canonicalJson({ route, body: body ?? null, params }))
    .digest("hex");
}
