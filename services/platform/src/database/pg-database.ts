import pg from "pg";
import { isConnectionFailure, neverSent, reconnectDelayMs } from "./connection-failure.js";
import type { Database, Queryable, QueryResult } from "./database.js";
import { DatabaseUnavailableError } from "./database-unavailable.js";
import { isRoleName } from "./service-roles.js";
import { createStatementNames } from "./statement-names.js";

// NUMERIC and BIGINT stay strings: money is decimal and ids may exceed 2^53.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export interface PgDatabaseOptions {
  readonly connectionString: string;
  readonly maxConnections?: number;
  readonly applicationName?: string;
  /**
   * Acts as this role on every connection (the `role` setting at connection start, so even RESET ROLE
   * returns to it): the one-process mode gives each service its own role over one login.
   */
  readonly role?: string;
  /**
   * How long work whose connection was lost (or could not be had) keeps being retried, when retrying is
   * safe, before it fails with DatabaseUnavailableError. Default 5 s: a PostgreSQL restart is ridden out.
   */
  readonly reconnectBudgetMs?: number;
}

const DEFAULT_RECONNECT_BUDGET_MS = 5_000;

/**
 * node-postgres behind the Database interface, built to ride out a PostgreSQL restart:
 *
 * - Every client checked out of the pool has an `'error'` listener for as long as it is out (node-postgres
 *   emits `'error'` on a client whose server ends the session, and an unhandled one ends the process);
 *   a client that lost its connection is discarded, never returned to the pool.
 * - A transaction whose connection was lost before COMMIT was sent is retried from the start: the server
 *   rolls back a transaction whose session ends, so nothing of the failed attempt remains. `fn` must
 *   therefore keep its side effects in the database (or be safe to repeat). Once COMMIT has been sent, a
 *   lost connection leaves the outcome unknown; that is never retried here and fails with
 *   DatabaseUnavailableError("unknown") — the caller's idempotency (keys, unique constraints, conditional
 *   updates) makes its own retry safe. A unit declared `idempotent` (running it again after it committed
 *   changes nothing) is retried in that case too.
 * - A statement outside a transaction is retried only when it never reached the server (no connection
 *   could be had, or the client was already dead); one that was sent may have run, so it fails with
 *   DatabaseUnavailableError("unknown").
 * - Retries back off (50 ms doubling to 1 s) within `reconnectBudgetMs`; then DatabaseUnavailableError
 *   ("not-applied"). Errors about the statement itself (constraints, syntax, serialization) pass through
 *   unchanged and are never retried.
 */
export function createPgDatabase(options: PgDatabaseOptions): Database & { readonly pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: options.applicationName ?? "payouts",
    ...(options.role === undefined ? {} : { options: `-c role=${roleName(options.role)}` }),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  // And no client is ever without an 'error' listener, whatever state it is in: node-postgres emits
  // 'error' on a client whose server ends the session, and the pool takes its own listener off a client
  // it hands out before the new owner can add one. (Seen under load: a FATAL 57P01 reaching a client in
  // that gap ended the process.) The per-checkout listener below is what notices the loss.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  const budgetMs = options.reconnectBudgetMs ?? DEFAULT_RECONNECT_BUDGET_MS;

  /** Runs `work` on a checked-out client with an error listener; a client that failed is discarded. */
  const withClient = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    let lost: unknown;
    const onError = (error: unknown) => {
      lost ??= error;
    };
    client.on("error", onError);
    try {
      return await work(client);
    } catch (error) {
      const cause = error instanceof DatabaseUnavailableError ? error.cause : error;
      if (isConnectionFailure(cause)) lost ??= cause;
      throw error;
    } finally {
      client.removeListener("error", onError);
      client.release(lost === undefined ? undefined : toError(lost));
    }
  };

  /**
   * Retries `attempt` while it fails with a retryable connection failure and the budget allows; when it gives
   * up, `outcome` says whether an earlier attempt may have been applied.
   */
  const withReconnects = async <T>(
    attempt: () => Promise<T>,
    retryable: (error: unknown) => boolean,
    outcome: () => "not-applied" | "unknown" = () => "not-applied",
  ): Promise<T> => {
    const started = performance.now();
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        if (error instanceof DatabaseUnavailableError) throw error;
        if (!isConnectionFailure(error)) throw error;
        const delay = reconnectDelayMs(n);
        if (!retryable(error) || performance.now() - started + delay > budgetMs) {
          throw new DatabaseUnavailableError(outcome(), error);
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };

  const run = async <R>(client: pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    const name = params !== undefined && params.length > 0 ? preparedName(sql) : undefined;
    const config: pg.QueryConfig = { text: sql };
    if (params !== undefined) config.values = params as unknown[];
    if (name !== undefined) config.name = name;
    const res = await client.query(config);
    return { rows: res.rows as R[], rowCount: res.rowCount ?? 0 } satisfies QueryResult<R>;
  };

  /** One statement in autocommit: retried only if it certainly never reached the server. */
  const statement = <R>(sql: string, params?: readonly unknown[]) => {
    let sent = false;
    return withReconnects(
      () =>
        withClient(async (client) => {
          sent = true;
          try {
            return await run<R>(client, sql, params);
          } catch (error) {
            if (neverSent(error)) sent = false;
            else if (isConnectionFailure(error)) throw new DatabaseUnavailableError("unknown", error);
            throw error;
          }
        }),
      () => !sent,
    );
  };

  return {
    kind: "postgres",
    pool,
    query: (sql, params) => statement(sql, params),
    exec: async (sql) => {
      await statement(sql);
    },
    transaction: (fn, transactionOptions) => {
      // An idempotent unit runs again after a COMMIT whose answer was lost; if it then gives up, that COMMIT
      // may have been applied.
      let commitMaybeApplied = false;
      return withReconnects(
        () =>
          withClient(async (client) => {
            await client.query("BEGIN");
            const tx: Queryable = {
              query: (sql, params) => run(client, sql, params),
              exec: async (sql) => {
                await client.query(sql);
              },
            };
            let result: Awaited<ReturnType<typeof fn>>;
            try {
              result = await fn(tx);
            } catch (error) {
              // On a lost connection the server has rolled back already; asking again would only fail.
              if (!isConnectionFailure(error)) await client.query("ROLLBACK").catch(() => {});
              throw error;
            }
            try {
              await client.query("COMMIT");
            } catch (error) {
              // Refused before sending (the connection was already gone): nothing was committed. Sent and
              // unanswered: the outcome is unknown, and only an idempotent unit may simply run again.
              if (isConnectionFailure(error) && !neverSent(error)) {
                commitMaybeApplied = true;
                if (transactionOptions?.idempotent !== true)
                  throw new DatabaseUnavailableError("unknown", error);
              }
              throw error;
            }
            return result;
          }),
        // Anything before COMMIT is rolled back with the lost session, so the whole unit can run again.
        () => true,
        () => (commitMaybeApplied ? "unknown" : "not-applied"),
      );
    },
    close: () => pool.end(),
  };
}

// One table of statement names per process: a name always stands for the same text on every connection.
const preparedName = createStatementNames();

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

function roleName(role: string): string {
  if (!isRoleName(role)) throw new Error(`invalid role name ${JSON.stringify(role)}`);
  return role;
}
