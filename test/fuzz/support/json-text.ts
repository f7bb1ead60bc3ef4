/**
 * JSON request bodies as the fuzz suite writes them: a tree that can hold what a JavaScript value cannot —
 * number spellings (`1e400`, `-0`, 20-digit integers), duplicate and prototype keys (`__proto__`), and
 * ready-made text (deep nesting, malformed JSON) — serialised to the exact text that is sent.
 */

/** Text written into the body as is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object as its ordered list of members, so `__proto__` is a plain key and duplicates are possible. */
export class JsonObject {
  constructor(readonly members: readonly (readonly [string, JsonNode])[]) {}

  get(key: string): JsonNode | undefined {
    return this.members.find(([k]) => k === key)?.[1];
  }

  with(key: string, value: JsonNode): JsonObject {
    const kept = this.members.filter(([k]) => k !== key);
    return new JsonObject([...kept, [key, value]]);
  }

  without(key: string): JsonObject {
    return new JsonObject(this.members.filter(([k]) => k !== key));
  }
}

export type JsonNode = null | boolean | number | string | RawJson | JsonObject | readonly JsonNode[];

/** The exact JSON text of `node` (JSON.stringify escapes lone surrogates as `\udXXX`, which JSON allows). */
export function jsonText(node: JsonNode): string {
  if (node instanceof RawJson) return node.text;
  if (node instanceof JsonObject) {
    return `{${node.members.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(",")}}`;
  }
  if (Array.isArray(node)) return `[${node.map(jsonText).join(",")}]`;
  return JSON.stringify(node) ?? "null";
}

/** A plain JSON value (from the OpenAPI document's examples) as a tree. */
export function fromValue(value: unknown): JsonNode {
  if (Array.isArray(value)) return value.map(fromValue);
  if (typeof value === "object" && value !== null) {
    return new JsonObject(Object.entries(value).map(([k, v]) => [k, fromValue(v)] as const));
  }
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return null;
}
