/**
 * Input PostgreSQL cannot store as sent, refused at the edge with 400 INVALID_FIELD instead of failing
 * deeper down (500) or being silently altered: NUL (0x00, which `text` and `jsonb` reject) and unpaired
 * UTF-16 surrogates (not Unicode: encoded to UTF-8 they turn into U+FFFD, so what is stored would differ
 * from what was sent). JSON bodies are also limited in nesting depth, so no recursive code behind the edge
 * can be driven into a stack overflow.
 */
import type { FastifyRequest } from "fastify";
import { ApiError, invalidField } from "./api-error.js";

/** Arrays and objects inside each other in a request body; the root object is level 1. */
export const MAX_JSON_DEPTH = 64;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What in `text` cannot be accepted ("a NUL character"), or undefined when all of it can. */
export function unsafeCharacterIn(text: string): string | undefined {
  const found = UNSAFE_TEXT.exec(text);
  if (!found) return undefined;
  return found[0] === "\u0000" ? "a NUL character" : "an unpaired surrogate";
}

/**
 * Throws 400 INVALID_FIELD when a parsed JSON body nests deeper than MAX_JSON_DEPTH, or when a string or
 * a key in it has unsafe text (`field` names it: `recipient.name_first`, `events[0]`). Iterative, so the
 * check itself is safe at any depth.
 */
export function checkJsonBody(body: unknown): void {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value: body, path: "", depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value, path, depth } = item;
    if (typeof value === "string") {
      const bad = unsafeCharacterIn(value);
      if (bad) throw invalidField(path || "request body", `must not contain ${bad}`);
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) {
      throw new ApiError(400, "INVALID_FIELD", `request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    if (Array.isArray(value)) {
      for (const [i, child] of value.entries())
        pending.push({ value: child, path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      const bad = unsafeCharacterIn(key);
      if (bad) throw invalidField(path || "request body", `must not have a key containing ${bad}`);
      pending.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
}

/** Throws 400 INVALID_FIELD, naming the parameter, when a path or query parameter has unsafe text. */
export function checkUrlParameters(request: FastifyRequest): void {
  for (const source of [request.params, request.query]) {
    if (typeof source !== "object" || source === null) continue;
    for (const [name, value] of Object.entries(source)) {
      for (const text of [name, ...(Array.isArray(value) ? value : [value])]) {
        const bad = typeof text === "string" ? unsafeCharacterIn(text) : undefined;
        if (bad) throw invalidField(unsafeCharacterIn(name) ? "query" : name, `must not contain ${bad}`);
      }
    }
  }
}
