import { mkdirSync } from "node:fs";
import { PGlite, types } from "@electric-sql/pglite";
import type { Database, Queryable, QueryResult } from "./database.js";

/**
 * PGlite (PostgreSQL compiled to WASM) for the embedded mode: one process, one on-disk database in
 * `dataDir` (or in memory when omitted). PGlite runs one transaction at a time, which is what a single
 * laptop process needs; the distributed mode uses real PostgreSQL.
 */
export async function createPgliteDatabase(dataDir?: string): Promise<Database> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const db = new PGlite({
    ...(dataDir === undefined ? {} : { dataDir }),
    parsers: { [types.NUMERIC]: (v: string) => v, [types.INT8]: (v: string) => v },
  });
  await db.waitReady;

  const toResult = <R>(res: { rows: unknown[]; affectedRows?: number }): QueryResult<R> => ({
    rows: res.rows as R[],
    // PGlite reports affectedRows 0 for a SELECT; rows returned are the count then.
    rowCount: res.rows.length > 0 ? res.rows.length : (res.affectedRows ?? 0),
  });

  return {
    kind: "pglite",
    query: async (sql, params) => toResult(await db.query(sql, params as unknown[] | undefined)),
    exec: async (sql) => {
      await db.exec(sql);
    },
    transaction: (fn) =>
      db.transaction(async (inner) => {
        const tx: Queryable = {
          query: async (sql, params) => toResult(await inner.query(sql, params as unknown[] | undefined)),
          exec: async (sql) => {
            await inner.exec(sql);
          },
        };
        return await fn(tx);
      }),
    close: () => db.close(),
  };
}
