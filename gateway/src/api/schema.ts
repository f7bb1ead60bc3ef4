/**
 * The building blocks of every request and response shape of the partner and admin APIs. A shape is a
 * TypeBox schema: a plain JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) that also carries its
 * TypeScript type (`Static<typeof Shape>`). From that one definition come the body validation
 * (`read-body.ts`), the types of routes and renderers, and the OpenAPI documents (`openapi-builder.ts`).
 *
 * Hints that only the gateway reads (a component's name, the error code of a bad value) are stored as
 * non-enumerable `~` properties: TypeBox keeps them when it wraps a schema (Optional), and they never
 * reach the JSON of a document.
 */
import Type, { type Static, type TObject, type TSchema } from "typebox";
import type { Reason } from "../http/error-map.js";

export { type Static, type TObject, type TSchema, Type };

const COMPONENT = "~component";
const INVALID_CODE = "~invalidCode";
const MINOR_UNITS = "~minorUnitsOf";

function hint<T extends TSchema>(schema: T, key: string, value: string): T {
  Object.defineProperty(schema, key, { value, enumerable: false, configurable: true });
  return schema;
}

/** Names `schema` as `#/components/schemas/<name>`: every use of it in a document becomes a `$ref`. */
export const component = <T extends TSchema>(name: string, schema: T): T => hint(schema, COMPONENT, name);

export const componentName = (schema: unknown): string | undefined =>
  (schema as Record<string, string | undefined>)[COMPONENT];

/** A bad value of this field answers `code` (INVALID_AMOUNT for amounts) instead of INVALID_FIELD. */
export const withInvalidCode = <T extends TSchema>(code: Reason, schema: T): T =>
  hint(schema, INVALID_CODE, code);

export const invalidCodeOf = (schema: unknown): Reason | undefined =>
  (schema as Record<string, Reason | undefined>)[INVALID_CODE];

/**
 * A decimal amount in `currency` that may have at most the currency's ISO 4217 minor units: more is
 * INVALID_AMOUNT naming the field, checked right after the field's own format.
 */
export const inMinorUnitsOf = <T extends TSchema>(currency: string, schema: T): T =>
  hint(schema, MINOR_UNITS, currency);

export const minorUnitsCurrencyOf = (schema: unknown): string | undefined =>
  (schema as Record<string, string | undefined>)[MINOR_UNITS];

export const DECIMAL_PATTERN = "^-?\\d+(\\.\\d+)?$";

/**
 * A decimal accepted as a JSON number (read digit for digit from the request's text) or a decimal
 * string, so no client has to round a double. Read as its exact text: the TypeScript type is `string`.
 */
export const DecimalInput = (
  description: string,
  options: { minimum?: 0; exclusiveMinimum?: 0; examples?: unknown[] } = {},
) =>
  Type.Unsafe<string>({
    type: ["number", "string"],
    pattern: DECIMAL_PATTERN,
    description: `${description} A JSON number or a decimal string (\`"1500.50"\`).`,
    ...options,
  });

/** A decimal answered as a string at full precision (admin API). */
export const DecimalString = (description: string, examples?: string[]) =>
  Type.String({ pattern: DECIMAL_PATTERN, description, ...(examples ? { examples } : {}) });

/** One of `values` (a string enum in the document, a union of literals in TypeScript). */
export const StringEnum = <const V extends readonly string[]>(
  values: V,
  options: { description?: string; default?: V[number]; examples?: V[number][] } = {},
) => Type.Unsafe<V[number]>({ type: "string", enum: [...values], ...options });

/** `schema` or JSON null. */
export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

/** An ISO 8601 instant in UTC with milliseconds. */
export const Timestamp = (description: string) =>
  Type.String({ format: "date-time", description: `${description} ISO 8601 in UTC with milliseconds.` });

/** The one error body of both listeners. */
export const ErrorBody = component(
  "ErrorBody",
  Type.Object(
    {
      code: Type.String({ description: "Stable machine-readable code.", examples: ["INVALID_AMOUNT"] }),
      message: Type.String({ description: "Human-readable; may change." }),
      field: Type.Optional(
        Type.String({
          description: "The one field, header or query parameter at fault, when there is one.",
          examples: ["amount"],
        }),
      ),
      request_id: Type.String({
        description: "Equals the `X-Request-Id` response header.",
        examples: ["req_01m7xx9726hzfmmn1fcz6t8605"],
      }),
    },
    { additionalProperties: false, description: "Every error answer of both listeners." },
  ),
);
export type ErrorBody = Static<typeof ErrorBody>;
