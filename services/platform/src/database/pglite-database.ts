import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { PGlite, types } from "@electric-sql/pglite";
import type { Database, Queryable, QueryResult } from "./database.js";

/**
 * PostgreSQL's default shared_buffers (128 MB) is WASM memory that PGlite fills as pages are read and
 * never returns; the embedded mode's database (a laptop sandbox) is far smaller, and the OS page cache
 * still holds the files. 32 MB keeps the embedded process under its 400 MB memory target.
 */
const POSTGRESQL_CONF = ["shared_buffers=32MB"];

/**
 * A new data directory is set up by initdb, which PGlite runs as a WASM instance of its own; its memory
 * (~300–450 MB) stayed resident in the process that ran it, even after that PGlite was closed. A
 * short-lived child process initialises the directory instead, and this process only opens it (RSS of a
 * PGlite opened on a fresh directory: 637 MB in-process, 172 MB this way).
 */
async function initialiseDataDir(dataDir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const script = `require(${JSON.stringify(pglite)}).PGlite.create({ dataDir: process.argv[1] }).then((db) => db.close())`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", script, dataDir], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `initialising PGlite data directory ${dataDir} failed (${signal ?? `exit ${code}`}): ${stderr.slice(-2000)}`,
          ),
        );
    });
  });
}

/**
 * PGlite (PostgreSQL compiled to WASM) for the embedded mode: one process, one on-disk database in
 * `dataDir` (or in memory when omitted). PGlite runs one transaction at a time, which is what a single
 * laptop process needs; the distributed mode uses real PostgreSQL.
 */
export async function createPgliteDatabase(dataDir?: string): Promise<Database> {
  const options = {
    ...(dataDir === undefined ? {} : { dataDir }),
    postgresqlconf: POSTGRESQL_CONF,
    parsers: { [types.NUMERIC]: (v: string) => v, [types.INT8]: (v: string) => v },
  };
  if (dataDir !== undefined) {
    mkdirSync(dataDir, { recursive: true });
    if (!existsSync(join(dataDir, "PG_VERSION"))) await initialiseDataDir(dataDir);
  }
  const db = new PGlite(options);
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
