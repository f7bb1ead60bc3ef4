/**
 * The fingerprint that tells a replay from a reused idempotency key (IETF idempotency-key draft): SHA-256
 * over the route, the canonical JSON of the body and every query parameter that changes the answer
 * (`dp`, since a replay repeats the first response byte for byte).
 */
import { createHash } from "node:crypto";

/** Text copied to the output as is, told apart from the JSON strings being serialised. */
class Punctuation {
  constructor(readonly text: string) {}
}

/**
 * JSON with object keys sorted at every depth and no whitespace: equal data, equal text. Iterative (an
 * explicit stack, not recursion), so no nesting depth can overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Popped from the end: each container pushes its closing bracket first and its opening bracket last.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item instanceof Punctuation) {
      out.push(item.text);
    } else if (item === null || typeof item !== "object") {
      const text = JSON.stringify(item);
      if (text === undefined) throw new TypeError(`no canonical JSON for ${typeof item}`);
      out.push(text);
    } else if (Array.isArray(item)) {
      pending.push(new Punctuation("]"));
      for (let i = item.length - 1; i >= 0; i--) {
        pending.push(item[i] ?? null);
        if (i > 0) pending.push(new Punctuation(","));
      }
      pending.push(new Punctuation("["));
    } else {
      const entries = Object.entries(item as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      pending.push(new Punctuation("}"));
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        pending.push(child, new Punctuation(`${i > 0 ? "," : ""}${JSON.stringify(key)}:`));
      }
      pending.push(new Punctuation("{"));
    }
  }
  return out.join("");
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
