import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "./database.js";

/**
 * Applies a service's migrations (`NNN_name.sql`, lexical order) to its own schema. Each file runs in
 * one transaction with its bookkeeping row, under a transaction-scoped advisory lock, so several
 * replicas (or a Helm hook and a developer) can run migrations at once without applying a file twice.
 * SQL in the files names the schema explicitly (`ledger.transactions`).
 */
export interface MigrationSet {
  readonly schema: string;
  readonly dir: string;
}

export async function migrate(db: Database, set: MigrationSet): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(set.schema)) throw new Error(`invalid schema name ${set.schema}`);
  const files = readdirSync(set.dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    const done = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`migrate:${set.schema}`]);
      await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${set.schema};
        CREATE TABLE IF NOT EXISTS ${set.schema}.schema_migrations (
          version text PRIMARY KEY,
          applied_at timestamptz NOT NULL DEFAULT now()
        );`);
      const seen = await tx.query(`SELECT 1 FROM ${set.schema}.schema_migrations WHERE version = $1`, [file]);
      if (seen.rowCount > 0) return false;
      await tx.exec(readFileSync(join(set.dir, file), "utf8"));
      await tx.query(`INSERT INTO ${set.schema}.schema_migrations (version) VALUES ($1)`, [file]);
      return true;
    });
    if (done) applied.push(file);
  }
  return applied;
}
