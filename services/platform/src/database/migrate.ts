import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database, Queryable } from "./database.js";
import { readMigrationFolder } from "./migration-files.js";

/**
 * Applies a service's migrations (`NNN_name.sql`, lexical order, one number per file: migration-files.ts)
 * to its own schema. Each file runs in one transaction with its bookkeeping row, under a
 * transaction-scoped advisory lock, so several replicas (or a Helm hook and a developer) can run
 * migrations at once without applying a file twice. SQL in the files names the schema explicitly
 * (`ledger.transactions`).
 *
 * Bookkeeping rows are keyed by file name. A file renamed after it may have been applied (listed in the
 * folder's `former-names.json`) has its row renamed in the same locked transaction, before the check, so a
 * database that applied it under its former name never applies it again.
 */
export interface MigrationSet {
  readonly schema: string;
  readonly dir: string;
}

export async function migrate(db: Database, set: MigrationSet): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(set.schema)) throw new Error(`invalid schema name ${set.schema}`);
  const { files, formerNames } = readMigrationFolder(set.dir);
  const applied: string[] = [];
  for (const file of files) {
    const done = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`migrate:${set.schema}`]);
      await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${set.schema};
        CREATE TABLE IF NOT EXISTS ${set.schema}.schema_migrations (
          version text PRIMARY KEY,
          applied_at timestamptz NOT NULL DEFAULT now()
        );`);
      await renameFormerVersions(tx, set.schema, formerNames);
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

/**
 * Gives the bookkeeping row of each renamed file its current name (a no-op once done). A row already
 * present under the current name wins; the former one then names no file and is never read again.
 */
async function renameFormerVersions(
  tx: Queryable,
  schema: string,
  formerNames: ReadonlyMap<string, string>,
): Promise<void> {
  for (const [former, current] of formerNames) {
    await tx.query(
      `UPDATE ${schema}.schema_migrations SET version = $2 WHERE version = $1
        AND NOT EXISTS (SELECT 1 FROM ${schema}.schema_migrations WHERE version = $2)`,
      [former, current],
    );
  }
}
