/**
 * Every route the fuzz suite exercises, with the shapes of its inputs. Partner routes come from the OpenAPI
 * document the gateway serves (its paths, methods, parameters, request schemas and examples), so a new
 * documented route is fuzzed without touching this suite. Admin routes come from the admin listener's own
 * route table; the admin API has no document, so ADMIN_BODIES gives the bodies of the routes that read
 * one, and a route missing there is still fuzzed with bodies built from every known field name.
 */
import { isPublicAdminRoute } from "@payouts/gateway/internal/admin/admin-access";
import type { JsonSchema } from "@payouts/gateway/internal/openapi/openapi-types";
import { RAIL_SIGNATURE_HEADER } from "@payouts/platform/signing/rail-callback-signature";
import type { FastifyInstance } from "fastify";
import { registeredRoutes } from "../../support/registered-routes.js";

export type Listener = "partner" | "admin";
export type Auth = "basic" | "bearer" | "none" | "rail-signature";

export interface QueryParameter {
  readonly name: string;
  readonly schema: JsonSchema;
}

export interface Operation {
  readonly listener: Listener;
  readonly method: string;
  /** `/transactions/{tx_id}` */
  readonly template: string;
  readonly auth: Auth;
  readonly pathParams: readonly string[];
  readonly query: readonly QueryParameter[];
  /** Header parameters the operation documents (X-Idempotency-Key). */
  readonly headers: readonly string[];
  readonly body?: JsonSchema;
  readonly examples: readonly unknown[];
}

// biome-ignore lint/suspicious/noExplicitAny: the served document is walked as JSON
type Json = Record<string, any>;

/** The partner operations of the served OpenAPI document, `$ref`s resolved. */
export function partnerOperations(doc: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (method === "parameters") continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => resolve(doc, p));
      const content = op.requestBody?.content?.["application/json"];
      const security = op.security ?? doc.security;
      operations.push({
        listener: "partner",
        method: method.toUpperCase(),
        template,
        auth: params.some((p) => p.name.toLowerCase() === RAIL_SIGNATURE_HEADER)
          ? "rail-signature"
          : security.length === 0
            ? "none"
            : "basic",
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, schema: p.schema })),
        headers: params.filter((p) => p.in === "header" && p.name === "X-Idempotency-Key").map((p) => p.name),
        ...(content ? { body: content.schema } : {}),
        examples: Object.values((content?.examples ?? {}) as Json).map((e: Json) => e.value),
      });
    }
  }
  return operations;
}

/** The admin listener's routes; only the public ones (probes, /metrics, the console's files, sign-in) answer without credentials. */
export function adminOperations(app: FastifyInstance): Operation[] {
  return registeredRoutes(app).map((route) => {
    const [method = "", template = ""] = route.split(" ");
    const body = ADMIN_BODIES[route];
    const isPublic = isPublicAdminRoute(method, template.replace(/\{(\w+)\}/g, ":$1"));
    return {
      listener: "admin",
      method,
      template,
      auth: isPublic ? "none" : "bearer",
      pathParams: [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ""),
      query: [],
      headers: ADMIN_HEADERS[route] ?? [],
      ...(body
        ? { body }
        : method === "POST" || method === "PUT" || method === "PATCH"
          ? { body: ANY_ADMIN_BODY }
          : {}),
      examples: [],
    };
  });
}

const decimal: JsonSchema = { type: ["string", "number"], pattern: "^-?\\d+(\\.\\d+)?$" };
const text = (maxLength: number): JsonSchema => ({ type: "string", maxLength });
const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  required,
});
const PARTNER_FIELDS = {
  name: text(200),
  supported_currencies: { type: "array", items: { type: "string", pattern: "^[A-Z]{3}$" } },
  fees: object({ percent: decimal, fixed_usd: decimal }),
} satisfies Record<string, JsonSchema>;

/** Bodies of the admin routes (`gateway/src/admin/*`). */
export const ADMIN_BODIES: Readonly<Record<string, JsonSchema>> = {
  "POST /admin/partners": object(PARTNER_FIELDS, ["name"]),
  "PATCH /admin/partners/{partner_id}": object(PARTNER_FIELDS),
  "POST /admin/partners/{partner_id}/apps": object({
    preview_rate_limit_per_minute: { type: "integer", minimum: 1, maximum: 1_000_000 },
  }),
  "POST /admin/partners/{partner_id}/balance/credits": object({ amount_usd: decimal, reference: text(500) }, [
    "amount_usd",
    "reference",
  ]),
  "PUT /admin/fx-rates/{currency}": object({ rate_per_usd: decimal }, ["rate_per_usd"]),
  "PUT /admin/corridors/{country_code}": object(
    {
      currency: { type: "string", pattern: "^[A-Z]{3}$" },
      min_amount: decimal,
      max_amount: decimal,
      enabled: { type: "boolean" },
    },
    ["currency", "min_amount", "max_amount"],
  ),
  "POST /admin/transactions/{tx_id}/refund": object({ reason: text(500) }),
  "POST /admin/transactions/{tx_id}/fail": object({ reason: text(500), force: { type: "boolean" } }, [
    "reason",
  ]),
  "POST /admin/sandbox/transactions/{tx_id}/settle": object(
    { outcome: { type: "string", enum: ["SUCCESS", "FAILED"] }, reason: text(500) },
    ["outcome"],
  ),
  "PATCH /admin/partners/{partner_id}/apps/{client_id}": object(
    { preview_rate_limit_per_minute: { type: "integer", minimum: 1, maximum: 1_000_000 } },
    ["preview_rate_limit_per_minute"],
  ),
  "PATCH /admin/webhook-configs/{config_id}": object({ enabled: { type: "boolean" }, reason: text(500) }, [
    "enabled",
  ]),
};

/** Header parameters of the admin routes that read one. */
const ADMIN_HEADERS: Readonly<Record<string, readonly string[]>> = {
  "POST /admin/partners/{partner_id}/balance/credits": ["X-Idempotency-Key"],
};

/** For an admin route not in ADMIN_BODIES: any of the fields the admin routes know, any of their shapes. */
const ANY_ADMIN_BODY: JsonSchema = object(
  Object.fromEntries(
    Object.values(ADMIN_BODIES).flatMap((schema) => Object.entries(schema.properties ?? {})),
  ),
);

function resolve(doc: Json, node: Json): Json {
  let current = node;
  while (typeof current.$ref === "string") {
    const path = (current.$ref as string).replace(/^#\//, "").split("/");
    current = path.reduce((at: Json, key) => at[key], doc);
  }
  return current;
}

/** `schema` with its top-level `$ref` (and those of its properties, lazily) resolved against `doc`. */
export function schemaResolver(doc: Json): (schema: JsonSchema) => JsonSchema {
  return (schema) => resolve(doc, schema as Json) as JsonSchema;
}
