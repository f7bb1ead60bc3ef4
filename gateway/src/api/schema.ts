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
import { DEFAULT_DP, type JsonDecimal, MAX_DP, MIN_DP } from "@payouts/platform/money/json-decimal";
import Type, {
  type Static,
  type TObject,
  type TObjectOptions,
  type TProperties,
  type TSchema,
} from "typebox";
import type { Reason } from "../http/error-map.js";

export { type Static, type TObject, type TSchema, Type };

const COMPONENT = "~component";
const INVALID_CODE = "~invalidCode";
const MINOR_UNITS = "~minorUnitsOf";
const SERVICE_RULE = "~serviceRule";
const REFUSED = "~refused";
const STRICT_MESSAGE = "~strictMessage";
const ANY_CASE = "~anyCase";
const DATE = "~date";

function hint<T extends TSchema>(schema: T, key: string, value: string): T {
  Object.defineProperty(schema, key, { value, enumerable: false, configurable: true });
  return schema;
}

/** Names `schema` as `#/components/schemas/<name>`: every use of it in a document becomes a `$ref`. */
export const component = <T extends TSchema>(name: string, schema: T): T => hint(schema, COMPONENT, name);

/** A closed object (a property it does not list is refused), named `name` in the document. */
export const ClosedObject = <P extends TProperties>(
  name: string,
  properties: P,
  options: TObjectOptions = {},
) => component(name, Type.Object(properties, { additionalProperties: false, ...options }));

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

/**
 * A field whose value rules (presence, length, format, enum, range) are the owning service's, which
 * answers them with its own messages: the gateway checks only the JSON type (an object: that its required
 * members are strings) and, for a string, its own cap `maxLength` (which keeps junk out of the services);
 * the document still states the service's rules.
 */
export const serviceRule = <T extends TSchema>(schema: T, gateway: { maxLength?: number } = {}): T =>
  hint(schema, SERVICE_RULE, JSON.stringify(gateway));

export const serviceRuleOf = (schema: unknown): { maxLength?: number } | undefined => {
  const text = (schema as Record<string, string | undefined>)[SERVICE_RULE];
  return text === undefined ? undefined : JSON.parse(text);
};

/** A field that must not be sent at all: present (not null) → 400 `code` with `message`, naming it. */
export const Refused = (code: Reason, message: string, description: string) =>
  hint(Type.Unsafe<never>({ not: {}, description }), REFUSED, JSON.stringify({ code, message }));

export const refusalOf = (schema: unknown): { code: Reason; message: string } | undefined => {
  const text = (schema as Record<string, string | undefined>)[REFUSED];
  return text === undefined ? undefined : JSON.parse(text);
};

/**
 * A text field checked strictly: a blank string is a value (checked against the pattern, not taken as
 * absent), and any wrong type or format is INVALID_FIELD with `message`.
 */
export const strictText = <T extends TSchema>(message: string, schema: T): T =>
  hint(schema, STRICT_MESSAGE, message);

export const strictMessageOf = (schema: unknown): string | undefined =>
  (schema as Record<string, string | undefined>)[STRICT_MESSAGE];

/** A query text read in any case: upper-cased before its checks (codes, statuses). */
export const anyCase = <T extends TSchema>(schema: T): T => hint(schema, ANY_CASE, "upper");

export const isAnyCase = (schema: unknown): boolean =>
  (schema as Record<string, string | undefined>)[ANY_CASE] !== undefined;

/** RFC 3339 date-time with a zone, or a plain date (midnight UTC). */
export const DATE_PATTERN =
  "^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$";

/**
 * A date query parameter: an RFC 3339 date-time with a zone or a plain date, that must also be a real
 * instant (not 2026-13-01); read as its text.
 */
export const QueryDate = (description: string, examples?: string[]) =>
  hint(Type.String({ pattern: DATE_PATTERN, description, ...(examples ? { examples } : {}) }), DATE, "date");

export const isQueryDate = (schema: unknown): boolean =>
  (schema as Record<string, string | undefined>)[DATE] !== undefined;

/** The `dp` query parameter's value: decimal places of USD amounts in a response. */
export const DecimalPlaces = Type.Integer({ minimum: MIN_DP, maximum: MAX_DP, default: DEFAULT_DP });

export const DECIMAL_PATTERN = "^-?\\d+(\\.\\d+)?$";

/**
 * A decimal accepted as a JSON number (read digit for digit from the request's text) or a decimal
 * string, so no client has to round a double. Read as its exact text: the TypeScript type is `string`.
 */
export const DecimalInput = (
  description: string,
  options: { minimum?: 0; exclusiveMinimum?: 0; maximum?: number; examples?: unknown[] } = {},
) =>
  Type.Unsafe<string>({
    type: ["number", "string"],
    pattern: DECIMAL_PATTERN,
    description: `${description} A JSON number or a decimal string (\`"1500.50"\`).`,
    ...options,
  });

/** An amount to read: a DecimalInput whose bad value answers INVALID_AMOUNT. */
export const AmountInput = (description: string, options: Parameters<typeof DecimalInput>[1] = {}) =>
  withInvalidCode("INVALID_AMOUNT", DecimalInput(description, options));

/** A decimal answered as a string at full precision (admin API). */
export const DecimalString = (description: string, examples?: string[]) =>
  Type.String({ pattern: DECIMAL_PATTERN, description, ...(examples ? { examples } : {}) });

/** One of `values` (a string enum in the document, a union of literals in TypeScript). */
export const StringEnum = <const V extends readonly string[]>(
  values: V,
  options: { description?: string; default?: V[number]; examples?: V[number][] } = {},
) => Type.Unsafe<V[number]>({ type: "string", enum: [...values], ...options });

/** An ISO 8601 instant in UTC with milliseconds. */
export const Timestamp = (description: string) =>
  Type.String({ format: "date-time", description: `${description} ISO 8601 in UTC with milliseconds.` });

const orNull = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

/** `schema` or JSON null; `Nullable.Text` and `Nullable.Timestamp` are the two most common. */
export const Nullable = Object.assign(orNull, {
  /** A string or JSON null. */
  Text: (description?: string) => orNull(Type.String(), description),
  /** A Timestamp or JSON null. */
  Timestamp: (description: string) => orNull(Timestamp(description)),
});

/** The one error body of both listeners. */
export const ErrorBody = component(
  "ErrorBody",
  Type.Object(
    {
      code: Type.String({ description: "Stable machine-readable code.", examples: ["INVALID_AMOUNT"] }),
      message: Type.String({ description: "Human-readable explanation; wording may change." }),
      field: Type.Optional(
        Type.String({
          description:
            "Only when one field (or header or query parameter) is at fault: its name, e.g. `amount`, `recipient.name_first`, `X-Idempotency-Key`, `dp`.",
        }),
      ),
      shortfall_usd: Type.Optional(
        Type.String({
          pattern: "^\\d+(\\.\\d+)?$",
          description:
            "Only with `INSUFFICIENT_FUNDS` on a batch approval: the USD the balance lacks, at full precision.",
        }),
      ),
      batch_id: Type.Optional(
        Type.String({ description: "Only with `BATCH_DUPLICATE`: the batch first made from the same file." }),
      ),
      request_id: Type.String({
        description: "Same as the `X-Request-Id` response header; quote it to support.",
      }),
    },
    {
      additionalProperties: false,
      description:
        "The one error body of every route. `code` is stable and meant for programs; `message` for people.",
    },
  ),
);
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * Money answered as a JSON number with fixed decimals (`0.30`): rendered from a JsonDecimal
 * (`@payouts/platform/money/json-decimal`), which is its TypeScript type.
 */
export const MoneyNumber = (description: string) => Type.Unsafe<JsonDecimal>({ type: "number", description });

/** USD at the request's `dp`. */
export const UsdAmount = (what: string) =>
  MoneyNumber(
    `${what} in USD, rounded half up to \`dp\` decimals (default 2) and written with exactly that many decimals (\`0.30\`). Stored values keep full precision.`,
  );

/** A local amount at the currency's ISO 4217 minor units. */
export const LocalAmount = (what: string) =>
  MoneyNumber(
    `${what} in the local currency, written with the currency's ISO 4217 minor units (\`540.00\` BRL, \`2630000\` VND).`,
  );

export const ExchangeRate = (prefix = "") =>
  MoneyNumber(
    `${prefix}Units of the local currency per 1 USD, always written with 10 decimals (\`5.4000000000\`).`,
  );

/** A JSON object with free keys. */
export const FreeMap = (description: string) =>
  Type.Unsafe<Record<string, unknown>>({ type: "object", additionalProperties: true, description });

/**
 * Whether `schema` refuses "" (a pattern or enum without it, `minLength` above 0, a `format`, or a type
 * other than string): such a field or parameter sent as "" is refused, not read as absent.
 */
export function forbidsEmptyString(schema: unknown): boolean {
  const s = schema as Record<string, unknown>;
  const types = [s.type].flat();
  if (!types.includes("string")) return s.type !== undefined;
  return (
    (typeof s.minLength === "number" && s.minLength > 0) ||
    (typeof s.pattern === "string" && !new RegExp(s.pattern).test("")) ||
    (Array.isArray(s.enum) && !s.enum.includes("")) ||
    typeof s.format === "string"
  );
}
