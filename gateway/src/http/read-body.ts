/**
 * Validation derived from a shape (`api/schema.ts`): reads a JSON body against a TypeBox object schema,
 * field by field in the schema's property order, with the partner-facing codes of BodyReader — absent or
 * blank required field → MISSING_REQUIRED_FIELD, wrong type, length, format or range → INVALID_FIELD (or
 * the field's own code, e.g. INVALID_AMOUNT), `field` naming its path (`fees.percent`). The first failing
 * check wins, so the property order of a shape is its check order. Decimals come back as their exact text.
 */

import { fitsMinorUnits, tooPreciseMessage } from "@payouts/platform/money/currencies";
import { Dec } from "@payouts/platform/money/decimal";
import type { Static, TObject, TSchema } from "typebox";
import {
  forbidsEmptyString,
  invalidCodeOf,
  minorUnitsCurrencyOf,
  refusalOf,
  serviceRuleOf,
  strictMessageOf,
} from "../api/schema.js";
import { ApiError, invalidField, missingField } from "./api-error.js";
import { BodyReader } from "./body-reader.js";

type Json = Record<string, unknown>;

export function readBody<T extends TObject>(schema: T, body: unknown): Static<T> {
  return readObject(schema, new BodyReader(body)) as Static<T>;
}

/** `readBody` of a part of a larger input, its fields named from `prefix` (`rows[12].` names `rows[12].amount`). */
export function readBodyAt<T extends TObject>(schema: T, body: unknown, prefix: string): Static<T> {
  return readObject(schema, new BodyReader(body, prefix)) as Static<T>;
}

function readObject(schema: TObject, reader: BodyReader): Json {
  const out: Json = {};
  const required = new Set<string>(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
    const value = readField(reader, name, property, required.has(name));
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function readField(reader: BodyReader, name: string, schema: TSchema, required: boolean): unknown {
  const s = schema as Json;
  const refusal = refusalOf(s);
  if (refusal) {
    if (reader.has(name)) throw new ApiError(400, refusal.code, refusal.message, reader.name(name));
    return undefined;
  }
  const nullable = nonNull(s);
  if (nullable) {
    // `null` clears a nullable field; for a string, so does "" (BodyReader counts "" as absent).
    const raw = reader.raw(name);
    if (raw === null || (raw === "" && (nullable as Json).type === "string")) return null;
    return readField(reader, name, nullable, required);
  }
  if (!required && reader.raw(name) === null) {
    throw new ApiError(
      400,
      invalidCodeOf(s) ?? "INVALID_FIELD",
      `${reader.name(name)} must not be null; leave it out instead`,
      reader.name(name),
    );
  }
  const strict = strictMessageOf(s);
  if (strict !== undefined) return readStrictText(reader, name, s, strict, required);
  refuseUndocumentedBlank(reader, name, s, required);
  const gatewayRule = serviceRuleOf(s);
  if (gatewayRule) return readTypeOnly(reader, name, s, gatewayRule.maxLength);
  const type = s.type;
  if (Array.isArray(type) && type.includes("number") && type.includes("string")) {
    return readDecimal(reader, name, s, required);
  }
  switch (type) {
    case "string":
      return readString(reader, name, s, required);
    case "integer":
      return reader.integer(name, {
        required,
        ...(typeof s.minimum === "number" ? { min: s.minimum } : {}),
        ...(typeof s.maximum === "number" ? { max: s.maximum } : {}),
      });
    case "boolean": {
      const value = reader.boolean(name);
      if (value === undefined && required) throw missingField(reader.name(name));
      return value;
    }
    case "array": {
      const items = s.items as Json | undefined;
      if (items?.type === "object") return readObjectArray(reader, name, s, required);
      const value = reader.stringArray(name);
      if (value === undefined && required) throw missingField(reader.name(name));
      const allowed = ((s.items as Json | undefined)?.enum as string[] | undefined) ?? undefined;
      const bad = allowed && value?.find((item) => !allowed.includes(item));
      if (bad !== undefined && allowed) {
        throw invalidField(reader.name(name), `may hold only ${allowed.join(", ")} (not ${bad})`);
      }
      return value;
    }
    case "object": {
      const nested = reader.object(name);
      if (nested === undefined) {
        if (required) throw missingField(reader.name(name));
        return undefined;
      }
      return readObject(schema as TObject, nested);
    }
    default:
      throw new Error(`read-body: field ${reader.name(name)} has a shape it cannot read`);
  }
}

/** An array of objects: its length within `minItems`/`maxItems`, then each element in order (`items[3].amount`). */
function readObjectArray(reader: BodyReader, name: string, s: Json, required: boolean): Json[] | undefined {
  const elements = reader.objectArray(name);
  if (elements === undefined) {
    if (required) throw missingField(reader.name(name));
    return undefined;
  }
  const field = reader.name(name);
  if (typeof s.minItems === "number" && elements.length < s.minItems) {
    throw invalidField(field, `must hold at least ${s.minItems} item${s.minItems === 1 ? "" : "s"}`);
  }
  if (typeof s.maxItems === "number" && elements.length > s.maxItems) {
    throw new ApiError(
      413,
      invalidCodeOf(s) ?? "INVALID_FIELD",
      `${field} must hold at most ${s.maxItems} items`,
      field,
    );
  }
  return elements.map((element) => readObject(s.items as TObject, element));
}

/**
 * An optional field sent as "" where its schema allows no empty string (a pattern or enum without it,
 * `minLength` above 0, a `format` such as email): refused, naming the field, rather than read as absent, so the document's word
 * holds. (A required field sent as "" is MISSING_REQUIRED_FIELD, as before.)
 */
function refuseUndocumentedBlank(reader: BodyReader, name: string, s: Json, required: boolean): void {
  if (required || reader.raw(name) !== "") return;
  if (![s.type].flat().includes("string")) return;
  const forbidsBlank = forbidsEmptyString(s);
  if (forbidsBlank) {
    const field = reader.name(name);
    throw new ApiError(
      400,
      invalidCodeOf(s) ?? "INVALID_FIELD",
      `${field} must not be empty; leave it out instead`,
      field,
    );
  }
}

/**
 * A strict text field: "" is a value; any wrong type or format → INVALID_FIELD with `message`. Absent
 * (or, when required, "") → MISSING_REQUIRED_FIELD if required.
 */
function readStrictText(
  reader: BodyReader,
  name: string,
  s: Json,
  message: string,
  required: boolean,
): string | undefined {
  const value = reader.raw(name);
  if (required && (value === undefined || value === null || value === "")) {
    throw missingField(reader.name(name));
  }
  if (value === undefined || value === null) return undefined;
  const pattern = typeof s.pattern === "string" ? new RegExp(s.pattern) : undefined;
  if (typeof value !== "string" || (pattern && !pattern.test(value))) {
    throw invalidField(reader.name(name), message);
  }
  return value;
}

/**
 * A service-checked field: its JSON type only (an object: its required members must be strings) and the
 * gateway's length cap; whether it is required, its format and its values are the service's to answer.
 */
function readTypeOnly(reader: BodyReader, name: string, s: Json, cap: number | undefined): unknown {
  switch (s.type) {
    case "string":
      return reader.string(name, cap === undefined ? {} : { max: cap });
    case "array":
      return reader.stringArray(name);
    case "object": {
      const raw = reader.raw(name);
      if (raw === undefined || raw === null) return undefined;
      const members = (s.required as string[] | undefined) ?? [];
      const value = (typeof raw === "object" && !Array.isArray(raw) ? raw : {}) as Json;
      if (members.some((member) => typeof value[member] !== "string")) {
        throw invalidField(reader.name(name), `must be an object with string ${members.join(" and ")}`);
      }
      return Object.fromEntries(members.map((member) => [member, value[member]]));
    }
    default:
      throw new Error(`read-body: service-checked field ${reader.name(name)} has a shape it cannot read`);
  }
}

/** The non-null member of `X | null` (`anyOf: [X, {type: null}]`), if `s` is one. */
function nonNull(s: Json): TSchema | undefined {
  const members = s.anyOf as Json[] | undefined;
  if (members?.length !== 2) return undefined;
  const other = members.find((m) => m.type !== "null");
  return members.some((m) => m.type === "null") ? (other as TSchema) : undefined;
}

function readString(reader: BodyReader, name: string, s: Json, required: boolean): string | undefined {
  const allowed = s.enum as string[] | undefined;
  const value = reader.string(name, {
    required,
    ...(typeof s.maxLength === "number" ? { max: s.maxLength } : {}),
    ...(typeof s.pattern === "string" && !allowed ? { pattern: new RegExp(s.pattern) } : {}),
  });
  if (value !== undefined && allowed && !allowed.includes(value)) {
    throw invalidField(reader.name(name), `must be one of ${allowed.join(", ")}`);
  }
  return value;
}

function readDecimal(reader: BodyReader, name: string, s: Json, required: boolean): string | undefined {
  const code = invalidCodeOf(s) ?? "INVALID_FIELD";
  const text = reader.decimalText(name, { required, code });
  if (text === undefined) return undefined;
  const field = reader.name(name);
  const negative = text.startsWith("-");
  if (s.minimum === 0 && negative) throw new ApiError(400, code, `${field} must not be negative`, field);
  if (s.exclusiveMinimum === 0 && (negative || /^-?0+(\.0+)?$/.test(text))) {
    throw new ApiError(400, code, `${field} must be greater than 0`, field);
  }
  const currency = minorUnitsCurrencyOf(s);
  if (currency !== undefined && !fitsMinorUnits(new Dec(text), currency)) {
    throw new ApiError(400, "INVALID_AMOUNT", tooPreciseMessage(field, currency), field);
  }
  return text;
}
