import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

describe("migrations on real PostgreSQL", () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: ReturnType<typeof createPgDatabase>;
  const dir = mkdtempSync(join(tmpdir(), "migrations-"));

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = createPgDatabase({ connectionString: testDb.url, maxConnections: 4 });
    writeFileSync(
      join(dir, "001_init.sql"),
      "CREATE TABLE demo.items (id int PRIMARY KEY, amount numeric(38,18) NOT NULL);",
    );
    writeFileSync(
      join(dir, "002_seed.sql"),
      "INSERT INTO demo.items VALUES (1, 0.000000000001); INSERT INTO demo.items VALUES (2, 12.5);",
    );
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  it("applies each file once, in order, into the service's schema, even when run concurrently", async () => {
    const runs = await Promise.all([
      migrate(db, { schema: "demo", dir }),
      migrate(db, { schema: "demo", dir }),
    ]);
    expect(runs.flat().sort()).toEqual(["001_init.sql", "002_seed.sql"]);
    expect(await migrate(db, { schema: "demo", dir })).toEqual([]);
    const rows = await db.query<{ id: number; amount: string }>(
      "SELECT id, amount FROM demo.items ORDER BY id",
    );
    expect(rows.rows).toEqual([
      { id: 1, amount: "0.000000000001000000" },
      { id: 2, amount: "12.500000000000000000" },
    ]);
    const version = await db.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    expect(Number(version.rows[0]!.v)).toBeGreaterThanOrEqual(150000);
  });

  it("rolls a failing file back whole, leaving no half-applied state", async () => {
    writeFileSync(
      join(dir, "003_broken.sql"),
      "INSERT INTO demo.items VALUES (3, 1); INSERT INTO demo.nope VALUES (1);",
    );
    await expect(migrate(db, { schema: "demo", dir })).rejects.toThrow(/nope/);
    const rows = await db.query("SELECT 1 FROM demo.items WHERE id = 3");
    expect(rows.rowCount).toBe(0);
    const seen = await db.query("SELECT 1 FROM demo.schema_migrations WHERE version = '003_broken.sql'");
    expect(seen.rowCount).toBe(0);
  });
});
