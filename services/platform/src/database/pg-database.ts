import pg from "pg";
import type { Database, Queryable, QueryResult } from "./database.js";

// NUMERIC and BIGINT stay strings: money is decimal and ids may exceed 2^53.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export interface PgDatabaseOptions {
  readonly connectionString: string;
  readonly maxConnections?: number;
  readonly applicationName?: string;
}

export function createPgDatabase(options: PgDatabaseOptions): Database & { readonly pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: options.applicationName ?? "payouts",
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});

  const query = async <R>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    const res = await client.query(sql, params as unknown[] | undefined);
    return { rows: res.rows as R[], rowCount: res.rowCount ?? 0 } satisfies QueryResult<R>;
  };

  return {
    kind: "postgres",
    pool,
    query: (sql, params) => query(pool, sql, params),
    exec: async (sql) => {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const tx: Queryable = {
          query: (sql, params) => query(client, sql, params),
          exec: async (sql) => {
            await client.query(sql);
          },
        };
        const result = await fn(tx);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
