/**
 * Monetary JSON numbers with an exact number of decimals (the partner API writes `"fee": 0.50`, not `0.5`).
 *
 * JSON.stringify can only write a JS number, which forgets trailing zeros and rounds past 17 digits. A
 * JsonDecimal holds the exact number text, and stringifyJson writes it verbatim where a number belongs.
 */
import { currencyByCode } from "./currencies.js";
import { Dec } from "./decimal.js";

/** Decimal places of `exchange_rate` in partner responses (a fixed limit of the partner API). */
export const EXCHANGE_RATE_DP = 10;
/** Default and bounds of the partner `dp` query parameter (limits of the partner API). */
export const DEFAULT_DP = 2;
export const MIN_DP = 0;
export const MAX_DP = 10;

// The JSON number grammar without an exponent: what a rendered amount may look like.
const JSON_PLAIN_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** Exact JSON number text, written unquoted by stringifyJson. */
export class JsonDecimal {
  readonly text: string;

  constructor(text: string) {
    if (!JSON_PLAIN_NUMBER.test(text)) {
      throw new TypeError(`not a JSON number: ${JSON.stringify(text)}`);
    }
    this.text = text;
  }

  /** Fallback for a plain JSON.stringify: still a number, though trailing zeros are lost. */
  toJSON(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }
}

/** `value` rounded half-up to exactly `dp` decimals; "-0.00" is written "0.00". */
export function fixed(value: Dec, dp: number): JsonDecimal {
  if (!Number.isInteger(dp) || dp < 0 || dp > 40) {
    throw new RangeError(`decimal places out of range: ${dp}`);
  }
  if (!value.isFinite()) {
    throw new RangeError(`not a finite decimal: ${value.toString()}`);
  }
  const rounded = new Dec(value).toDecimalPlaces(dp, Dec.ROUND_HALF_UP);
  return new JsonDecimal(rounded.isZero() ? new Dec(0).toFixed(dp) : rounded.toFixed(dp));
}

/** A USD amount or fee at the partner's `dp` (0 to 10). */
export function usd(value: Dec, dp: number = DEFAULT_DP): JsonDecimal {
  if (!Number.isInteger(dp) || dp < MIN_DP || dp > MAX_DP) {
    throw new RangeError(`dp must be an integer from ${MIN_DP} to ${MAX_DP}: ${dp}`);
  }
  return fixed(value, dp);
}

/** A local amount at the ISO 4217 minor units of its currency (2 for BRL, 0 for VND and UGX). */
export function local(value: Dec, currency: string): JsonDecimal {
  const minorUnits = currencyByCode(currency)?.minorUnits;
  if (minorUnits === undefined || minorUnits === null) {
    throw new RangeError(`no ISO 4217 minor units for currency ${JSON.stringify(currency)}`);
  }
  return fixed(value, minorUnits);
}

/** An exchange rate at EXCHANGE_RATE_DP decimals, whatever the partner's `dp`. */
export function rate(value: Dec): JsonDecimal {
  return fixed(value, EXCHANGE_RATE_DP);
}

/**
 * JSON.stringify without indentation, except that JsonDecimal values are written as their exact text.
 * Everything else follows JSON.stringify: toJSON is honoured, undefined/functions/symbols are dropped from
 * objects and become null in arrays, non-finite numbers become null, cycles and bigints throw TypeError.
 * Throws TypeError when the top-level value itself has no JSON form (e.g. undefined).
 */
export function stringifyJson(value: unknown): string {
  const text = serialise(value, "", new Set());
  if (text === undefined) {
    throw new TypeError(`value has no JSON representation: ${typeof value}`);
  }
  return text;
}

function serialise(input: unknown, key: string, ancestors: Set<object>): string | undefined {
  // Primitives first: JSON.stringify asks only objects (functions included) for toJSON.
  switch (typeof input) {
    case "string":
    case "number":
    case "boolean":
      return JSON.stringify(input);
    case "undefined":
    case "symbol":
      return undefined;
    case "bigint":
      throw new TypeError("a bigint has no JSON representation; use a JsonDecimal or a string");
  }
  if (input === null) return "null";
  const value = prepare(input as object, key);
  if (value instanceof JsonDecimal) {
    return value.text;
  }
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return JSON.stringify(value);
    case "bigint":
      throw new TypeError("a bigint has no JSON representation; use a JsonDecimal or a string");
    case "object":
      return value === null ? "null" : serialiseContainer(value, ancestors);
    default:
      return undefined;
  }
}

// The same preparation JSON.stringify applies to an object before looking at its type.
function prepare(input: object, key: string): unknown {
  if (input instanceof JsonDecimal) {
    return input;
  }
  let value: unknown = input;
  if (typeof (input as { toJSON?: unknown }).toJSON === "function") {
    value = (input as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    return value.valueOf();
  }
  return value;
}

function serialiseContainer(value: object, ancestors: Set<object>): string {
  if (ancestors.has(value)) {
    throw new TypeError("Converting circular structure to JSON");
  }
  ancestors.add(value);
  try {
    return Array.isArray(value) ? serialiseArray(value, ancestors) : serialiseObject(value, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function serialiseArray(items: readonly unknown[], ancestors: Set<object>): string {
  let text = "[";
  for (let index = 0; index < items.length; index++) {
    if (index > 0) text += ",";
    text += serialise(items[index], String(index), ancestors) ?? "null";
  }
  return `${text}]`;
}

// Keys that JSON writes as they are, between quotes (every key of the partner API's shapes).
const PLAIN_KEY = /^[\w-]*$/;

function serialiseObject(record: object, ancestors: Set<object>): string {
  let text = "{";
  let first = true;
  for (const key of Object.keys(record)) {
    const member = serialise((record as Record<string, unknown>)[key], key, ancestors);
    if (member === undefined) continue;
    text += `${first ? "" : ","}${PLAIN_KEY.test(key) ? `"${key}"` : JSON.stringify(key)}:${member}`;
    first = false;
  }
  return `${text}}`;
}
