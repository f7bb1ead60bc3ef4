/**
 * Requests for one operation: a valid-ish request built from its documented shapes (schemas, examples,
 * ids of the fuzz world), then bent by hostile values — in the body, the path ids, the query string, the
 * headers and the spelling of the URL.
 */
import type { JsonSchema } from "@payouts/gateway/internal/openapi/openapi-types";
import {
  RAIL_SIGNATURE_HEADER,
  RAIL_TIMESTAMP_HEADER,
  railCallbackSignature,
  railCallbackTimestamp,
} from "@payouts/platform/signing/rail-callback-signature";
import fc from "fast-check";
import { ADMIN_TOKEN } from "../../support/test-platform.js";
import type { Operation } from "./api-surface.js";
import type { RawRequest } from "./fuzz-http.js";
import type { FuzzWorld } from "./fuzz-world.js";
import {
  applyMutation,
  contentTypeVariant,
  hostileBodyText,
  hostileHeader,
  hostileIdempotencyKey,
  hostileIdSegment,
  hostileQueryName,
  hostileQueryValue,
  mutation,
  percentEncode,
  spell,
  spelling,
} from "./hostile-values.js";
import { fromValue, type JsonNode, JsonObject, jsonText } from "./json-text.js";

export const RAIL_CALLBACK_SECRET = "test-rail-callback-secret-of-32-bytes";

/** A generated request; printed short when fast-check reports it. */
export class FuzzRequest implements RawRequest {
  constructor(
    readonly method: string,
    readonly target: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: string | undefined,
  ) {}

  [fc.toStringMethod](): string {
    const cut = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…(${s.length} chars)` : s);
    return `${this.method} ${cut(this.target)} ${JSON.stringify(this.headers, (_k, v) => (typeof v === "string" ? cut(v) : v))} ${this.body === undefined ? "(no body)" : JSON.stringify(cut(this.body))}`;
  }
}

export interface SchemaContext {
  resolve(schema: JsonSchema): JsonSchema;
  known(name: string): readonly string[] | undefined;
}

/** A value of `schema` (field `name`, for ids from the world), valid or nearly so. */
export function valueFor(
  schema: JsonSchema,
  ctx: SchemaContext,
  name?: string,
  depth = 0,
): fc.Arbitrary<JsonNode> {
  const s = ctx.resolve(schema);
  const known = name ? ctx.known(name) : undefined;
  const own = ownValue(s, ctx, depth);
  return known
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: own })
    : own;
}

function ownValue(s: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<JsonNode> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const variants = s.oneOf ?? s.anyOf ?? s.allOf;
  if (variants) return fc.oneof(...variants.map((v) => valueFor(v, ctx, undefined, depth)));
  const types = s.type === undefined ? ["object"] : Array.isArray(s.type) ? s.type : [s.type];
  return fc.oneof(...types.map((type) => typedValue(type, s, ctx, depth)));
}

function typedValue(type: string, s: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<JsonNode> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: s.minimum ?? -1_000, max: s.maximum ?? 1_000_000 });
    case "number":
      return fc.oneof(
        fc.integer({ min: s.minimum ?? -1_000, max: s.maximum ?? 1_000_000 }),
        fc.constantFrom(0.01, 0.5, 1.25, 100.5, 1234.56, 99999.99),
      );
    case "string":
      return stringValue(s);
    case "array":
      return fc.array(s.items ? valueFor(s.items, ctx, undefined, depth + 1) : fc.string(), {
        minLength: s.minItems ?? 0,
        maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)),
      });
    default:
      return objectValue(s, ctx, depth);
  }
}

function stringValue(s: JsonSchema): fc.Arbitrary<JsonNode> {
  const examples = (s.examples ?? []).filter((e): e is string => typeof e === "string");
  let own: fc.Arbitrary<string>;
  if (s.pattern) own = fc.stringMatching(new RegExp(s.pattern), { maxLength: 40 });
  else if (s.format === "email") own = fc.emailAddress();
  else if (s.format === "uri")
    own = fc.constantFrom("http://127.0.0.1:9/hooks", "https://example.com/h", "ftp://x");
  else if (s.format === "date-time")
    own = fc
      .date({ noInvalidDate: true, min: new Date(2000, 0, 1), max: new Date(2100, 0, 1) })
      .map((d) => d.toISOString());
  else own = fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
  return examples.length > 0 ? fc.oneof(fc.constantFrom(...examples), own) : own;
}

function objectValue(s: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<JsonNode> {
  const properties = Object.entries(s.properties ?? {});
  if (depth > 3 || properties.length === 0) return fc.constant(new JsonObject([]));
  const required = new Set(s.required ?? []);
  const members = properties.map(([key, schema]) => {
    const value = valueFor(schema, ctx, key, depth + 1).map((v) => [key, v] as const);
    return required.has(key)
      ? value.map((m) => [m])
      : fc.option(
          value.map((m) => [m]),
          { nil: undefined },
        );
  });
  return fc
    .tuple(...members)
    .map(
      (chosen) => new JsonObject(chosen.flatMap((m) => (m === undefined ? [] : m)) as [string, JsonNode][]),
    );
}

/** The JSON body of `op`: an example or a schema value with world ids filled in, usually mutated. */
function bodyFor(op: Operation, ctx: SchemaContext): fc.Arbitrary<string | undefined> {
  if (!op.body) {
    // Small only: a route without a body may answer before reading one, and a server that closes the
    // connection with a large body unread resets it (plain HTTP behaviour, not what this suite is after).
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constant("{}") },
      { weight: 1, arbitrary: hostileBodyText.filter((text) => text.length < 10_000) },
    );
  }
  const examples = op.examples.map((e) => withKnownIds(fromValue(e), ctx));
  const base =
    examples.length > 0
      ? fc.oneof(fc.constantFrom(...examples), valueFor(op.body, ctx))
      : valueFor(op.body, ctx);
  const mutated = fc
    .tuple(
      base,
      fc.oneof(
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) },
      ),
    )
    .map(([body, mutations]) => jsonText(mutations.reduce(applyMutation, body)));
  return fc.oneof({ weight: 9, arbitrary: mutated }, { weight: 1, arbitrary: hostileBodyText });
}

/** An example's placeholder ids replaced by the world's (the first known value, so examples stay meaningful). */
function withKnownIds(node: JsonNode, ctx: SchemaContext): JsonNode {
  if (!(node instanceof JsonObject)) return node;
  return new JsonObject(
    node.members.map(([key, value]) => {
      const known = ctx.known(key);
      return [key, known && typeof value === "string" ? known[0]! : withKnownIds(value, ctx)] as const;
    }),
  );
}

function pathFor(op: Operation, ctx: SchemaContext): fc.Arbitrary<string> {
  const params = op.pathParams.map((name) => {
    const known = ctx.known(name);
    const good = known
      ? fc.constantFrom(...known.map(percentEncode))
      : fc.stringMatching(/^[a-z]{2,5}_[0-9a-z]{4,26}$/);
    return fc.oneof({ weight: 3, arbitrary: good }, { weight: 2, arbitrary: hostileIdSegment });
  });
  return fc
    .tuple(
      fc.tuple(...params),
      fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: spelling }),
    )
    .map(([values, spelled]) => {
      let i = 0;
      const path = op.template.replace(/\{\w+\}/g, () => values[i++] ?? "");
      return spelled ? spell(path, spelled) : path;
    });
}

function queryFor(op: Operation, ctx: SchemaContext): fc.Arbitrary<string> {
  const documented = op.query.map((q) =>
    fc.option(
      fc
        .oneof(
          {
            weight: 3,
            arbitrary: valueFor(q.schema, ctx, q.name).map((v) =>
              percentEncode(typeof v === "string" ? v : jsonText(v)),
            ),
          },
          { weight: 1, arbitrary: hostileQueryValue },
        )
        .map((v) => `${q.name}=${v}`),
      { nil: undefined, freq: 2 },
    ),
  );
  const extra = fc.array(
    fc
      .tuple(
        fc.oneof(hostileQueryName, fc.constantFrom(...op.query.map((q) => q.name), "dp")),
        hostileQueryValue,
      )
      .map(([name, value]) => `${name}=${value}`),
    { maxLength: 2 },
  );
  return fc
    .tuple(
      fc.tuple(...documented),
      fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: extra }),
    )
    .map(([chosen, more]) => {
      const pairs = [...chosen.filter((p): p is string => p !== undefined), ...more];
      return pairs.length > 0 ? `?${pairs.join("&")}` : "";
    });
}

function headersFor(
  op: Operation,
  world: FuzzWorld,
  body: string | undefined,
): fc.Arbitrary<Record<string, string>> {
  const auth = authorization(op, world);
  const contentType =
    body === undefined
      ? fc.constant(undefined)
      : fc.oneof(
          { weight: 8, arbitrary: fc.constant("application/json") },
          { weight: 1, arbitrary: contentTypeVariant },
        );
  const idempotency = op.headers.includes("X-Idempotency-Key")
    ? fc.oneof(
        { weight: 6, arbitrary: fc.uuid() },
        // Shared by many requests: replays, reuse with another body, another transaction.
        { weight: 2, arbitrary: fc.constantFrom("fuzz-key-1", "fuzz-key-2", "fuzz-key-3") },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: hostileIdempotencyKey },
      )
    : fc.constant(undefined);
  const requestId = fc.option(
    fc.constantFrom("fuzz-1", "x".repeat(129), "bad id", "é", "%00", "req_".repeat(40)),
    { nil: undefined, freq: 4 },
  );
  const extra = fc.option(hostileHeader, { nil: undefined, freq: 6 });
  return fc
    .record({ auth, contentType, idempotency, requestId, extra })
    .map(({ auth, contentType, idempotency, requestId, extra }) => {
      const headers: Record<string, string> = {};
      if (auth !== undefined) headers.authorization = auth;
      if (contentType !== undefined) headers["content-type"] = contentType;
      if (idempotency !== undefined) headers["x-idempotency-key"] = idempotency;
      if (requestId !== undefined) headers["x-request-id"] = requestId;
      if (extra) headers[extra[0]] = extra[1];
      if (op.auth === "rail-signature" && body !== undefined) {
        // Signed as the sandbox rail signs, at send time, so the callback's checks behind it are reached.
        const timestamp = railCallbackTimestamp(new Date());
        headers[RAIL_TIMESTAMP_HEADER] = timestamp;
        headers[RAIL_SIGNATURE_HEADER] = railCallbackSignature(RAIL_CALLBACK_SECRET, timestamp, body);
      }
      return headers;
    });
}

function authorization(op: Operation, world: FuzzWorld): fc.Arbitrary<string | undefined> {
  const { clientId, clientSecret } = world.partner;
  if (op.auth === "basic")
    return fc.constant(`Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`);
  if (op.auth === "bearer") return fc.constant(`Bearer ${ADMIN_TOKEN}`);
  return fc.constant(undefined);
}

/** Authenticated requests for `op` (the caller's credentials are right; everything else may be wrong). */
export function requestFor(op: Operation, world: FuzzWorld, ctx: SchemaContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(pathFor(op, ctx), queryFor(op, ctx), bodyFor(op, ctx))
    .chain(([path, query, body]) =>
      headersFor(op, world, body).map(
        (headers) => new FuzzRequest(op.method, `${path}${query}`, headers, body),
      ),
    );
}
