/**
 * Validation derived from a shape (`api/schema.ts`), for query strings as `read-body.ts` is for bodies:
 * reads a route's query parameters against the operation's query shape, parameter by parameter in the
 * shape's property order (the first failing check wins), and returns the typed value. Every failure is 400
 * INVALID_FIELD naming the parameter, except an absent required one (MISSING_REQUIRED_FIELD).
 *
 * - An absent parameter is absent: the shape's `default` if it has one, else left out. An empty one is the
 *   same where the shape allows "" (free text); where it does not (a pattern, enum, integer, date) an optional
 *   one is refused, as the document says (a required one is MISSING_REQUIRED_FIELD).
 * - A parameter given twice, or longer than its `maxLength` (255 when the shape states none), is refused.
 * - `anyCase` text is upper-cased first; then its `enum` and `pattern` apply. A `QueryDate` must also be a
 *   real instant. An integer is decimal digits within `minimum`–`maximum`; a boolean is `true` or `false`.
 * - A `serviceRule` parameter is checked for being given once (and the gateway's cap, if stated) only: its
 *   values are the owning service's to answer.
 * - A shape with `additionalProperties: false` is closed: a parameter it does not list is refused, so a
 *   typo is an error rather than an unfiltered list (the admin console's routes). For the same reason an
 *   empty value (`partner_id=`) is refused there too, instead of reading as "no filter". Otherwise (the
 *   partner routes) other parameters are ignored and an empty one is absent.
 */
import { type CamelCaseKeys, camelCaseKeys } from "@payouts/platform/database/camel-case-keys";
import type { Static, TObject, TSchema } from "typebox";
import { forbidsEmptyString, isAnyCase, isQueryDate, serviceRuleOf, Type } from "../api/schema.js";
import { invalidField, missingField } from "./api-error.js";

type Json = Record<string, unknown>;

/** The longest query text read when its shape states no `maxLength`. */
export const QUERY_TEXT_MAX = 255;

/** The query shape of a route that takes no parameters. */
export const NO_QUERY = Type.Object({}, { additionalProperties: false });

/**
 * `readQuery`, answered under the camelCase names of the called service's request fields: for routes whose
 * parameters are that request's fields (a parameter left out is the field's zero value).
 */
export function readQueryRequest<T extends TObject>(shape: T, query: unknown): CamelCaseKeys<Static<T>> {
  return camelCaseKeys(readQuery(shape, query));
}

export function readQuery<T extends TObject>(shape: T, query: unknown): Static<T> {
  const given = (query ?? {}) as Json;
  const properties = shape.properties as Record<string, TSchema>;
  if ((shape as Json).additionalProperties === false) {
    refuseOthers(given, Object.keys(properties));
    refuseEmpty(given);
  }
  const required = new Set<string>(shape.required ?? []);
  const out: Json = {};
  for (const [name, schema] of Object.entries(properties)) {
    const value = readParameter(name, schema as Json, given[name], required.has(name));
    if (value !== undefined) out[name] = value;
  }
  return out as Static<T>;
}

function refuseOthers(given: Json, allowed: readonly string[]): void {
  for (const name of Object.keys(given)) {
    if (!allowed.includes(name)) {
      throw invalidField(
        name,
        allowed.length === 0
          ? "is not a parameter of this route (it takes none)"
          : `is not a parameter of this route (${allowed.join(", ")})`,
      );
    }
  }
}

function refuseEmpty(given: Json): void {
  for (const [name, value] of Object.entries(given)) {
    if (value === "") throw invalidField(name, "must not be empty (leave the parameter out for no filter)");
  }
}

function readParameter(name: string, s: Json, raw: unknown, required: boolean): unknown {
  if (raw === "" && !required && forbidsEmptyString(s)) {
    throw invalidField(name, "must not be empty; leave it out instead");
  }
  const gatewayRule = serviceRuleOf(s);
  if (gatewayRule) return readText(name, raw, gatewayRule.maxLength);
  const text = readText(name, raw, typeof s.maxLength === "number" ? s.maxLength : QUERY_TEXT_MAX);
  if (text === undefined) {
    if (s.default !== undefined) return s.default;
    if (required) throw missingField(name);
    return undefined;
  }
  switch (s.type) {
    case "integer":
      return readInteger(name, s, text);
    case "boolean":
      if (text !== "true" && text !== "false") throw invalidField(name, "must be true or false");
      return text === "true";
    case "string":
      return checkString(name, s, isAnyCase(s) ? text.toUpperCase() : text);
    default:
      throw new Error(`read-query: parameter ${name} has a shape it cannot read`);
  }
}

/** One text value, or undefined when absent or empty; given twice or over `max` characters is refused. */
function readText(name: string, raw: unknown, max: number | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (typeof raw !== "string" || (max !== undefined && raw.length > max)) {
    throw invalidField(
      name,
      max === undefined ? "must be given once" : `must be given once, as at most ${max} characters`,
    );
  }
  return raw;
}

function readInteger(name: string, s: Json, text: string): number {
  const min = typeof s.minimum === "number" ? s.minimum : 0;
  const max = typeof s.maximum === "number" ? s.maximum : Number.MAX_SAFE_INTEGER;
  const digits = new RegExp(`^\\d{1,${String(max).length}}$`);
  const n = digits.test(text) ? Number(text) : Number.NaN;
  if (!(n >= min && n <= max)) throw invalidField(name, `must be an integer from ${min} to ${max}`);
  return n;
}

function checkString(name: string, s: Json, value: string): string {
  if (Array.isArray(s.enum) && !s.enum.includes(value)) {
    throw invalidField(name, `must be one of ${s.enum.join(", ")}`);
  }
  if (isQueryDate(s)) {
    const valid = typeof s.pattern === "string" && new RegExp(s.pattern).test(value);
    if (!valid || Number.isNaN(new Date(value).getTime())) {
      throw invalidField(name, "must be an ISO 8601 date or date-time with a time zone");
    }
    return value;
  }
  if (typeof s.pattern === "string" && !new RegExp(s.pattern).test(value)) {
    throw invalidField(name, "is not well formed");
  }
  return value;
}
