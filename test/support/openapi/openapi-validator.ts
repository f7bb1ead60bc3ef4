/**
 * Validates JSON values against the schemas of an OpenAPI 3.1 document with Ajv's draft 2020-12 validator
 * (strict mode, so a schema keyword that is misspelt or misplaced fails the compile too). Used by the
 * tests that keep the document honest; Ajv comes with fastify and is not needed at run time.
 *
 * In `closed` mode every object schema that does not say otherwise refuses properties it does not list,
 * so a field the gateway sends but the document forgets is caught.
 */

import type { JsonSchema } from "@payouts/gateway/internal/openapi/openapi-types";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";

const BASE = "https://payouts.invalid/openapi";
const COMPONENT_REF = "#/components/schemas/";

type Json = Record<string, unknown>;

export interface OpenApiValidator {
  /** Problems of `value` against `schema` (a schema of the document, `$ref`s included); empty = valid. */
  validate(schema: JsonSchema, value: unknown): string[];
}

export function createOpenApiValidator(
  document: unknown,
  options: { closed?: boolean } = {},
): OpenApiValidator {
  const closed = options.closed ?? false;
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  const schemas = ((document as Json).components as Json | undefined)?.schemas ?? {};
  ajv.addSchema({ $id: BASE, $defs: prepare(schemas, closed) });
  return {
    validate(schema, value) {
      const check = ajv.compile(prepare(schema, closed) as object);
      return check(value) ? [] : (check.errors ?? []).map(describe);
    },
  };
}

/** The JSON schema of a documented response (or request body when `status` is "request"). */
export function documentedSchema(
  document: unknown,
  section: "paths" | "webhooks",
  key: string,
  method: string,
  status: string,
): JsonSchema {
  const operation = (((document as Json)[section] as Json)[key] as Json | undefined)?.[method] as
    | Json
    | undefined;
  if (!operation) throw new Error(`${section} ${key} ${method} is not documented`);
  const holder =
    status === "request"
      ? (operation.requestBody as Json)
      : ((operation.responses as Json)[status] as Json | undefined);
  const schema = ((holder?.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema;
  if (!schema) throw new Error(`${section} ${key} ${method} ${status} has no JSON schema`);
  return schema as JsonSchema;
}

/** Rewrites component refs to the registered `$defs` and, when `closed`, closes open object schemas. */
function prepare(node: unknown, closed: boolean): unknown {
  if (Array.isArray(node)) return node.map((child) => prepare(child, closed));
  if (typeof node !== "object" || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith(COMPONENT_REF)) {
      out.$ref = `${BASE}#/$defs/${value.slice(COMPONENT_REF.length)}`;
    } else if (key === "examples" || key === "default" || key === "const" || key === "enum") {
      out[key] = value;
    } else {
      out[key] = prepare(value, closed);
    }
  }
  if (closed && isObjectSchema(out) && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

function isObjectSchema(schema: Json): boolean {
  const type = schema.type;
  const types = Array.isArray(type) ? type : [type];
  return types.includes("object") && typeof schema.properties === "object";
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || "(root)";
  const extra =
    error.keyword === "additionalProperties" ? ` (${String(error.params.additionalProperty)})` : "";
  return `${where} ${error.message ?? error.keyword}${extra}`;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function addFormats(ajv: Ajv2020): void {
  ajv.addFormat("date-time", DATE_TIME);
  ajv.addFormat("email", /^[^\s@]+@[^\s@]+$/);
  ajv.addFormat("uri", {
    type: "string",
    validate: (value: string) => URL.canParse(value),
  });
}
