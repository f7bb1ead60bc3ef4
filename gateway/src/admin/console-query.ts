/**
 * Query parameters of the console's routes, read against the operation's query shape (`console-api.ts`):
 * a parameter the shape does not list, or one given twice, is 400 INVALID_FIELD naming it, so a typo is an
 * error rather than an unfiltered list; each value is checked by its shape's pattern, enum, length and
 * range. A route without a query shape takes no parameters.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { TObject } from "../api/schema.js";
import { invalidField } from "../http/api-error.js";

type Json = Record<string, unknown>;

export class QueryReader {
  private readonly query: Json;
  private readonly properties: Record<string, Json>;

  constructor(query: unknown, shape: TObject | undefined) {
    this.query = (query ?? {}) as Json;
    this.properties = (shape?.properties ?? {}) as Record<string, Json>;
    const allowed = Object.keys(this.properties);
    for (const name of Object.keys(this.query)) {
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

  /** The text given, checked against the shape; `upper` reads it upper-cased (codes, statuses). */
  string(name: string, opts: { upper?: boolean } = {}): string | undefined {
    const schema = this.schemaOf(name);
    const v = this.query[name];
    if (v === undefined || v === "") return undefined;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : 255;
    if (typeof v !== "string" || v.length > max) {
      throw invalidField(name, `must be given once, as at most ${max} characters`);
    }
    const value = opts.upper ? v.toUpperCase() : v;
    if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
      throw invalidField(name, `must be one of ${schema.enum.join(", ")}`);
    }
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value)) {
      throw invalidField(name, "is not well formed");
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    if (text !== "true" && text !== "false") throw invalidField(name, "must be true or false");
    return text === "true";
  }

  /** An integer within the shape's range; 0 when absent (the service's default). */
  integer(name: string): number {
    const schema = this.schemaOf(name);
    const text = this.string(name);
    if (text === undefined) return 0;
    const min = typeof schema.minimum === "number" ? schema.minimum : 0;
    const max = typeof schema.maximum === "number" ? schema.maximum : Number.MAX_SAFE_INTEGER;
    const n = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
    if (!(n >= min && n <= max)) throw invalidField(name, `must be an integer from ${min} to ${max}`);
    return n;
  }

  date(name: string): Date | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) {
      throw invalidField(name, "must be an ISO 8601 date or date-time with a time zone");
    }
    return date;
  }

  limit(): number {
    return this.integer("limit");
  }

  /** The cursor as given; what it holds is the service's to check. */
  cursor(): string {
    return this.string("cursor") ?? "";
  }

  private schemaOf(name: string): Json {
    const schema = this.properties[name];
    if (!schema) throw new Error(`query parameter ${name} is not in the route's shape`);
    return schema;
  }
}

/** A creation date range: both ends optional, `from` not after `to`; as protobuf timestamps. */
export function dateRange(q: QueryReader, fromName: string, toName: string) {
  const from = q.date(fromName);
  const to = q.date(toName);
  if (from && to && from > to) throw invalidField(fromName, `must not be after ${toName}`);
  return {
    ...(from ? { createdFrom: timestampFromDate(from) } : {}),
    ...(to ? { createdTo: timestampFromDate(to) } : {}),
  };
}
