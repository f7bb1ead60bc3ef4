/**
 * Builds OpenAPI 3.1 paths and `components.schemas` from operations (`api/operation.ts`). A shape named
 * with `component()` becomes `#/components/schemas/<name>` and every use of it a `$ref`; the schemas are
 * the shapes' own JSON Schema, so the document cannot drift from the validation or the types.
 */
import type { ApiOperation } from "../api/operation.js";
import { componentName, ErrorBody, type TSchema } from "../api/schema.js";
import { headerRef, parameterRef } from "./openapi-components.js";
import { type ErrorCase, errorResponses } from "./openapi-errors.js";
import type { JsonSchema, Operation, Parameter, PathItem, Reference, Response } from "./openapi-types.js";

type Json = Record<string, unknown>;

/** Collects named shapes while operations are turned into JSON Schema. */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};

  constructor() {
    this.emit(ErrorBody);
  }

  /** The JSON Schema of `schema`, its named parts (and itself, if named) as `$ref`s. */
  emit(schema: TSchema): JsonSchema {
    return this.walk(schema) as JsonSchema;
  }

  private walk(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((child) => this.walk(child));
    if (typeof node !== "object" || node === null) return node;
    const name = componentName(node);
    if (name !== undefined) {
      if (!(name in this.schemas)) {
        this.schemas[name] = {}; // reserved first, so a shape that refers to itself ends
        this.schemas[name] = this.copy(node as Json);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    return this.copy(node as Json);
  }

  private copy(node: Json): Json {
    const out: Json = {};
    // Object.keys: enumerable keys only, so TypeBox's and our `~` hints stay out of the document.
    for (const key of Object.keys(node)) {
      const value = node[key];
      out[key] = key === "examples" || key === "enum" || key === "const" ? value : this.walk(value);
    }
    return out;
  }
}

export interface ListenerRules {
  /** The error cases every operation of the listener can answer, given the operation. */
  readonly commonErrors: (op: ApiOperation) => readonly ErrorCase[];
}

/** The `paths` object of `operations`, in their order. */
export function buildPaths(
  operations: readonly ApiOperation[],
  registry: SchemaRegistry,
  rules: ListenerRules,
): Record<string, PathItem> {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const op of operations) {
    const item = paths[op.path] ?? {};
    paths[op.path] = item;
    const method = op.method.toLowerCase();
    if (item[method]) throw new Error(`${op.method} ${op.path} is defined twice`);
    item[method] = buildOperation(op, registry, rules);
  }
  return paths;
}

function buildOperation(op: ApiOperation, registry: SchemaRegistry, rules: ListenerRules): Operation {
  const responses: Record<string, Response> = {};
  for (const [status, response] of Object.entries(op.responses)) {
    responses[status] = {
      description: response.description,
      headers: { "X-Request-Id": headerRef("requestId"), ...response.headers },
      ...(response.schema
        ? {
            content: {
              [response.mediaType ?? "application/json"]: {
                schema: registry.emit(response.schema),
                ...(response.examples ? { examples: response.examples } : {}),
              },
              ...Object.fromEntries(
                (response.alsoAs ?? []).map((other) => [
                  other.mediaType,
                  { schema: { type: "string", description: other.description } },
                ]),
              ),
            },
          }
        : {}),
    };
  }
  const common = op.ownErrorsOnly ? [] : rules.commonErrors(op);
  const errors = errorResponses([...common, ...op.errors], op.errorOptions);
  for (const status of Object.keys(errors)) {
    if (responses[status]) throw new Error(`${op.operationId}: status ${status} is both success and error`);
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description || op.role ? { description: describeWithRole(op) } : {}),
    tags: op.tags,
    ...(op.public ? { security: [] } : {}),
    ...(op.role ? { "x-required-role": op.role } : {}),
    parameters: [
      parameterRef("requestId"),
      ...objectParameters(op.pathParams, "path", registry),
      ...objectParameters(op.query, "query", registry),
      ...(op.parameters ?? []),
    ],
    ...(op.body
      ? {
          requestBody: {
            required: (op.body.required?.length ?? 0) > 0,
            content: {
              "application/json": {
                schema: registry.emit(op.body),
                ...(op.bodyExamples ? { examples: op.bodyExamples } : {}),
              },
            },
          },
        }
      : {}),
    responses: { ...responses, ...errors },
  };
}

function objectParameters(
  shape: TSchema | undefined,
  where: "path" | "query",
  registry: SchemaRegistry,
): (Parameter | Reference)[] {
  if (!shape) return [];
  const required = new Set<string>((shape as Json).required as string[] | undefined);
  return Object.entries((shape as Json).properties as Record<string, TSchema>).map(([name, schema]) => {
    const { description, examples, ...rest } = registry.emit(schema) as JsonSchema & Json;
    return {
      name,
      in: where,
      description: String(description ?? name),
      required: where === "path" || required.has(name),
      schema: rest as JsonSchema,
      ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] } : {}),
    };
  });
}

/** The operation's description, then (admin operations) the least role that may call it. */
function describeWithRole(op: ApiOperation): string {
  const role = op.role
    ? `Requires the \`${op.role}\` role or a higher one (roles: viewer < operator < finance < admin); a lower one is answered 403 \`ROLE_FORBIDDEN\`.`
    : "";
  return [op.description ?? "", role].filter((part) => part !== "").join("\n\n");
}
