/**
 * A service's reasons as one typed table: each stable partner-facing code with the gRPC status it is answered
 * with, the seconds a caller should wait before retrying when there are some, and, for a reason always worded
 * the same way, its message (and field) from the facts the caller gives. From the table a service gets its
 * list of reasons, its `fail` for domain results and its ready-made errors; `rejectionsFor` (beside this
 * module) turns them into ConnectErrors. Pure: domain code uses it.
 *
 * The HTTP status is not here: the gateway maps each reason to one in its table (gateway/src/http/error-map.ts).
 */
import { type DomainError, fail as failWith, type Result } from "../domain-result.js";

/** The gRPC status of a reason, by the name of Connect's `Code` member. */
export type RpcStatus =
  | "InvalidArgument"
  | "NotFound"
  | "FailedPrecondition"
  | "Aborted"
  | "ResourceExhausted"
  | "Unavailable";

export interface ReasonSpec {
  /** InvalidArgument unless given: the request itself is at fault. */
  readonly status?: RpcStatus;
  /** Sent as the `retry_after_seconds` metadata with every refusal for this reason. */
  readonly retryAfterSeconds?: number;
  /** For a reason always worded the same way: its message, and field when it names one, from the facts. */
  readonly template?: (...facts: never) => { readonly message: string; readonly field?: string };
}

export type ReasonTable = { readonly [code: string]: ReasonSpec };

/** The codes of a table. */
export type CodeOf<T extends ReasonTable> = keyof T & string;

/** The codes of a table that have a template. */
export type TemplatedCode<T extends ReasonTable> = {
  [K in CodeOf<T>]: T[K]["template"] extends (...facts: never) => unknown ? K : never;
}[CodeOf<T>];

/** The facts a templated reason's message is made from. */
export type FactsOf<T extends ReasonTable, K extends TemplatedCode<T>> = T[K]["template"] extends (
  ...facts: infer F
) => unknown
  ? F
  : never;

export interface Reasons<T extends ReasonTable> {
  readonly table: T;
  /** Every code, in the table's order. */
  readonly codes: readonly CodeOf<T>[];
  statusOf(code: CodeOf<T>): RpcStatus;
  /** A refusal with its own message; `field` only when given. */
  error<K extends CodeOf<T>>(code: K, message: string, field?: string): DomainError<K>;
  /** The same refusal as a failed domain result. */
  fail(code: CodeOf<T>, message: string, field?: string): Result<never, DomainError<CodeOf<T>>>;
  /** A refusal worded by its template. */
  of<K extends TemplatedCode<T>>(code: K, ...facts: FactsOf<T, K>): DomainError<K>;
}

export function defineReasons<const T extends ReasonTable>(table: T): Reasons<T> {
  const error = <K extends CodeOf<T>>(code: K, message: string, field?: string): DomainError<K> =>
    field === undefined ? { code, message } : { code, message, field };
  return {
    table,
    codes: Object.keys(table) as CodeOf<T>[],
    statusOf: (code) => table[code]?.status ?? "InvalidArgument",
    error,
    fail: (code, message, field) => failWith(code, message, field),
    of: (code, ...facts) => {
      const template = table[code]?.template as
        | ((...f: typeof facts) => { message: string; field?: string })
        | undefined;
      if (!template) throw new Error(`reason ${code} has no template`);
      const { message, field } = template(...facts);
      return error(code, message, field);
    },
  };
}
