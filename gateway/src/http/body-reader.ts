import { ApiError, invalidField, missingField } from "./api-error.js";
import type { Reason } from "./error-map.js";
import { exactNumberText } from "./json-number-text.js";

/**
 * Reads typed fields out of a parsed JSON body with the partner-facing codes: absent →
 * MISSING_REQUIRED_FIELD, wrong type or shape → INVALID_FIELD, always naming the field.
 */
export class BodyReader {
  private readonly body: Record<string, unknown>;

  /** `prefix` names nested objects in errors, e.g. "fees." gives field "fees.percent". */
  constructor(
    body: unknown,
    private readonly prefix = "",
  ) {
    // No body is an empty object; a JSON `null` body is a value of the wrong type, refused below.
    if (body === undefined) this.body = {};
    else if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new ApiError(
        400,
        "INVALID_FIELD",
        `${prefix ? prefix.slice(0, -1) : "request body"} must be a JSON object`,
      );
    } else this.body = body as Record<string, unknown>;
  }

  has(field: string): boolean {
    return this.body[field] !== undefined && this.body[field] !== null;
  }

  raw(field: string): unknown {
    return this.body[field];
  }

  string(field: string, opts: { required: true; max?: number; pattern?: RegExp }): string;
  string(field: string, opts?: { required?: boolean; max?: number; pattern?: RegExp }): string | undefined;
  string(
    field: string,
    opts: { required?: boolean; max?: number; pattern?: RegExp } = {},
  ): string | undefined {
    const v = this.body[field];
    if (v === undefined || v === null || v === "") {
      if (opts.required) throw missingField(this.name(field));
      return undefined;
    }
    if (typeof v !== "string") throw invalidField(this.name(field), "must be a string");
    if (opts.max !== undefined && v.length > opts.max)
      throw invalidField(this.name(field), `must be at most ${opts.max} characters`);
    if (opts.pattern && !opts.pattern.test(v)) throw invalidField(this.name(field), "has an invalid format");
    return v;
  }

  boolean(field: string): boolean | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "boolean") throw invalidField(this.name(field), "must be a boolean");
    return v;
  }

  integer(field: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) {
      if (opts.required) throw missingField(this.name(field));
      return undefined;
    }
    if (typeof v !== "number" || !Number.isInteger(v))
      throw invalidField(this.name(field), "must be an integer");
    if (opts.min !== undefined && v < opts.min)
      throw invalidField(this.name(field), `must be at least ${opts.min}`);
    if (opts.max !== undefined && v > opts.max)
      throw invalidField(this.name(field), `must be at most ${opts.max}`);
    return v;
  }

  /**
   * A decimal given as a JSON number or a decimal string; returned as its exact text (a JSON number as the
   * client wrote it, not as the nearest double prints).
   */
  /** `code` answers a number too large or too precise for any decimal (INVALID_AMOUNT for an amount). */
  decimalText(field: string, opts: { required?: boolean; code?: Reason } = {}): string | undefined {
    const v = this.body[field];
    if (v === undefined || v === null || v === "") {
      if (opts.required) throw missingField(this.name(field));
      return undefined;
    }
    const text =
      typeof v === "number"
        ? (exactNumberText(this.body, field) ?? (Number.isFinite(v) ? String(v) : ""))
        : typeof v === "string"
          ? v.trim()
          : "";
    if (typeof v === "number" && /[eE]/.test(text)) {
      // A number whose exponent puts it beyond what a decimal here can hold, to the last digit.
      const name = this.name(field);
      throw new ApiError(
        400,
        opts.code ?? "INVALID_FIELD",
        `${name} has more digits than any amount can`,
        name,
      );
    }
    if (!/^-?\d+(\.\d+)?$/.test(text)) throw invalidField(this.name(field), "must be a decimal number");
    return text;
  }

  stringArray(field: string): string[] | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
      throw invalidField(this.name(field), "must be an array of strings");
    return v as string[];
  }

  /** An array of JSON objects, each read with its index in the field's name (`items[3].amount`). */
  objectArray(field: string): BodyReader[] | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) throw invalidField(this.name(field), "must be an array of objects");
    return v.map((element, i) => new BodyReader(element, `${this.name(field)}[${i}].`));
  }

  object(field: string): BodyReader | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "object" || Array.isArray(v)) throw invalidField(this.name(field), "must be an object");
    return new BodyReader(v, `${this.name(field)}.`);
  }

  /** The field's name in errors: its path from the body's root (`fees.percent`). */
  name(field: string): string {
    return `${this.prefix}${field}`;
  }
}
