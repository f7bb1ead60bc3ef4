/**
 * Migration files renumbered after deployment (two files once shared a number in the ledger's and the
 * webhooks' folders): a database migrated under the former names is recognised by the current ones through
 * each folder's former-names.json, and no file runs twice, on real PostgreSQL.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LEDGER_MIGRATIONS } from "@payouts/ledger/ledger-service";
import type { Database } from "@payouts/platform/database/database";
import { type MigrationSet, migrate } from "@payouts/platform/database/migrate";
import { readMigrationFolder } from "@payouts/platform/database/migration-files";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { WEBHOOKS_MIGRATIONS } from "@payouts/webhooks/webhooks-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

/** The folder as it was before the renumbering: each renamed file under its former name. */
function underFormerNames(set: MigrationSet, upTo?: string): MigrationSet {
  const dir = mkdtempSync(join(tmpdir(), `former-${set.schema}-`));
  const { files, formerNames } = readMigrationFolder(set.dir);
  const formerOf = new Map([...formerNames].map(([former, current]) => [current, former]));
  for (const file of files) {
    const name = formerOf.get(file) ?? file;
    if (upTo !== undefined && name > upTo) continue;
    cpSync(join(set.dir, file), join(dir, name));
  }
  return { schema: set.schema, dir };
}

/**
 * What the runner did before the renumbering (it took the folder as listed, two files with one number
 * included): each file in lexical order, in one transaction with its bookkeeping row keyed by file name.
 */
async function migrateAsBefore(db: Database, set: MigrationSet): Promise<string[]> {
  const files = readdirSync(set.dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort();
  for (const file of files) {
    await db.transaction(async (tx) => {
      await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${set.schema};
        CREATE TABLE IF NOT EXISTS ${set.schema}.schema_migrations (
          version text PRIMARY KEY,
          applied_at timestamptz NOT NULL DEFAULT now()
        );`);
      await tx.exec(readFileSync(join(set.dir, file), "utf8"));
      await tx.query(`INSERT INTO ${set.schema}.schema_migrations (version) VALUES ($1)`, [file]);
    });
  }
  return files;
}

describe("migrations renumbered after they were applied", () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: ReturnType<typeof createPgDatabase>;
  const temp: string[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = createPgDatabase({ connectionString: testDb.url, maxConnections: 4 });
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
    for (const dir of temp) rmSync(dir, { recursive: true, force: true });
  });

  const versions = async (schema: string) =>
    (
      await db.query<{ version: string }>(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`)
    ).rows.map((r) => r.version);

  it.each([
    ["ledger", LEDGER_MIGRATIONS],
    ["webhooks", WEBHOOKS_MIGRATIONS],
  ])("%s: a database migrated under the former names applies nothing again", async (schema, set) => {
    const { files, formerNames } = readMigrationFolder(set.dir);
    expect(formerNames.size).toBeGreaterThan(0);
    const old = underFormerNames(set);
    temp.push(old.dir);
    const appliedOld = await migrateAsBefore(db, old);
    expect(appliedOld).toHaveLength(files.length);
    expect(appliedOld).toEqual(expect.arrayContaining([...formerNames.keys()]));

    // Two replicas start the renumbered release at once: neither applies a file.
    const runs = await Promise.all([migrate(db, set), migrate(db, set)]);
    expect(runs.flat()).toEqual([]);
    expect(await versions(schema)).toEqual([...files]);
    expect(await migrate(db, set)).toEqual([]);
  });

  it("a database part-way through the former names applies only the files it had not, under their new names", async () => {
    await db.exec("DROP SCHEMA ledger CASCADE");
    const { files } = readMigrationFolder(LEDGER_MIGRATIONS.dir);
    // Applied up to the second file numbered 002 under the former names, before 003 and 004 existed.
    const old = underFormerNames(LEDGER_MIGRATIONS, "002_outbox_retention.sql");
    temp.push(old.dir);
    expect(await migrateAsBefore(db, old)).toEqual([
      "001_ledger.sql",
      "002_credit_idempotency.sql",
      "002_outbox_retention.sql",
    ]);
    // Everything after the renamed 003 runs, and nothing before it again (later files may be added).
    const pending = files.slice(files.indexOf("003_outbox_retention.sql") + 1);
    expect(pending.slice(0, 2)).toEqual(["004_operator_queries.sql", "005_credit_keys_kept.sql"]);
    expect(await migrate(db, LEDGER_MIGRATIONS)).toEqual(pending);
    expect(await versions("ledger")).toEqual([...files]);
    // The renamed file's index was built once (a second CREATE INDEX would have failed the run).
    const index = await db.query(
      "SELECT 1 FROM pg_indexes WHERE schemaname = 'ledger' AND indexname = 'outbox_published_at'",
    );
    expect(index.rowCount).toBe(1);
  });
});
