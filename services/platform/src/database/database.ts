/**
 * The one database abstraction every service uses. Two adapters implement it: node-postgres against
 * PostgreSQL (distributed mode, tests) and PGlite (embedded mode). Repositories take a `Queryable`;
 * the caller decides whether that is the database itself or an open transaction.
 */

export interface QueryResult<R> {
  readonly rows: R[];
  readonly rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface TransactionOptions {
  readonly idempotent?: boolean;
}

export interface Database extends Queryable {
  readonly kind: "postgres" | "pglite";
  /**
   * Runs `fn` inside BEGIN/COMMIT; any throw rolls back. `idempotent`: running the whole unit again after
   * it committed changes nothing (e.g. it first records an id and does nothing if the id is known), so
   * a connection lost while COMMIT's answer was awaited may be retried too (see pg-database.ts).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}

/** SQLSTATE of an error raised by either adapter, when it has one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

export const UNIQUE_VIOLATION = "23505";
export const SERIALIZATION_FAILURE = "40001";
export const DEADLOCK_DETECTED = "40P01";
