/**
 * Query parameters of the console's list routes: each read once, by name, with the usual 400
 * INVALID_FIELD naming the parameter. A parameter the route does not know is refused too, so a typo in a
 * filter is an error rather than an unfiltered list.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { invalidField } from "../http/api-error.js";

export const MAX_PAGE_SIZE = 100;

// RFC 3339 date-time (with zone) or a plain date (midnight UTC), as listTransactions reads them.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export class QueryReader {
  private readonly query: Record<string, unknown>;

  constructor(query: unknown, allowed: readonly string[]) {
    this.query = (query ?? {}) as Record<string, unknown>;
    for (const name of Object.keys(this.query)) {
      if (!allowed.includes(name))
        throw invalidField(name, `is not a parameter of this route (${allowed.join(", ")})`);
    }
  }

  string(name: string, opts: { pattern?: RegExp; max?: number; upper?: boolean } = {}): string | undefined {
    const v = this.query[name];
    if (v === undefined || v === "") return undefined;
    const max = opts.max ?? 255;
    if (typeof v !== "string" || v.length > max) {
      throw invalidField(name, `must be given once, as at most ${max} characters`);
    }
    const value = opts.upper ? v.toUpperCase() : v;
    if (opts.pattern && !opts.pattern.test(value)) throw invalidField(name, "is not well formed");
    return value;
  }

  oneOf<T extends string>(name: string, values: readonly T[], opts: { upper?: boolean } = {}): T | undefined {
    const text = this.string(name, opts);
    if (text === undefined) return undefined;
    if (!(values as readonly string[]).includes(text))
      throw invalidField(name, `must be one of ${values.join(", ")}`);
    return text as T;
  }

  boolean(name: string): boolean | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    if (text !== "true" && text !== "false") throw invalidField(name, "must be true or false");
    return text === "true";
  }

  date(name: string): Date | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const date = ISO_DATE.test(text) ? new Date(text) : undefined;
    if (!date || Number.isNaN(date.getTime())) {
      throw invalidField(name, "must be an ISO 8601 date or date-time with a time zone");
    }
    return date;
  }

  /** 0 when absent (the service's default page size). */
  limit(): number {
    const text = this.string("limit");
    if (text === undefined) return 0;
    const n = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
    if (!(n >= 1 && n <= MAX_PAGE_SIZE))
      throw invalidField("limit", `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    return n;
  }

  /** The cursor as given; its content is the service's to check. */
  cursor(): string {
    return this.string("cursor", { max: 500 }) ?? "";
  }
}

/** A date range: both ends optional, `from` not after `to`; as protobuf timestamps. */
export function dateRange(q: QueryReader, fromName: string, toName: string) {
  const from = q.date(fromName);
  const to = q.date(toName);
  if (from && to && from > to) throw invalidField(fromName, `must not be after ${toName}`);
  return {
    ...(from ? { createdFrom: timestampFromDate(from) } : {}),
    ...(to ? { createdTo: timestampFromDate(to) } : {}),
  };
}

/** Ids as the platform makes them: a short prefix, an underscore, base32 (platform/ids.ts). */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
