import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPgliteDatabase } from "@payouts/platform/database/pglite-database";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The embedded mode's database on disk: a new directory is initialised by a child process (initdb's WASM
 * memory stays out of the embedded process), an existing one is opened as it is.
 */
describe("a PGlite data directory", () => {
  const dir = mkdtempSync(join(tmpdir(), "payouts-pglite-"));
  const dataDir = join(dir, "data");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is initialised when new, and keeps what was written across a reopen", async () => {
    const first = await createPgliteDatabase(dataDir);
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
    await first.exec("CREATE TABLE kept (id text PRIMARY KEY, amount numeric(38, 18))");
    await first.query("INSERT INTO kept VALUES ($1, $2)", ["a", "12.5"]);
    await first.close();

    const again = await createPgliteDatabase(dataDir);
    const rows = await again.query<{ id: string; amount: string }>("SELECT id, amount FROM kept");
    expect(rows.rows).toEqual([{ id: "a", amount: "12.500000000000000000" }]);
    const buffers = await again.query<{ shared_buffers: string }>("SHOW shared_buffers");
    expect(buffers.rows[0]?.shared_buffers).toBe("32MB");
    await again.close();
  });
});
