import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { FORMER_NAMES_FILE, migrationNameProblems, readMigrationFolder } from "./migration-files.js";

const REPO = resolve(import.meta.dirname, "..", "..", "..", "..");

describe("migration file names", () => {
  it("accepts one file per number and renames to existing files", () => {
    expect(
      migrationNameProblems(["001_a.sql", "002_b.sql", "former-names.json", "README.md"], {
        "001_old.sql": "001_a.sql",
      }),
    ).toEqual([]);
  });

  it("refuses two files with one number, as a merge of two branches leaves them", () => {
    expect(migrationNameProblems(["001_a.sql", "002_from_main.sql", "002_from_branch.sql"], {})).toEqual([
      "002_from_branch.sql and 002_from_main.sql share one number: renumber the later one",
    ]);
    // The number, not its spelling, is what must be unique.
    expect(migrationNameProblems(["2_a.sql", "002_b.sql"], {})).toHaveLength(1);
  });

  it("refuses a rename to a missing file, a former name that is still a file, and chained renames", () => {
    expect(migrationNameProblems(["001_a.sql", "002_b.sql"], { "001_x.sql": "003_c.sql" })).toEqual([
      `${FORMER_NAMES_FILE}: 001_x.sql is renamed to 003_c.sql, which is not a migration`,
    ]);
    expect(migrationNameProblems(["001_a.sql", "002_b.sql"], { "001_a.sql": "002_b.sql" })).toEqual([
      `${FORMER_NAMES_FILE}: 001_a.sql is still a file`,
    ]);
    expect(
      migrationNameProblems(["001_a.sql", "002_b.sql"], {
        "001_x.sql": "002_b.sql",
        "002_b.sql": "001_a.sql",
      }),
    ).toContain(`${FORMER_NAMES_FILE}: 002_b.sql is both a current and a former name`);
  });

  it("reads a folder in order with its renames, and throws naming a folder's problems", () => {
    const dir = mkdtempSync(join(tmpdir(), "migration-names-"));
    for (const file of ["002_b.sql", "001_a.sql"]) writeFileSync(join(dir, file), "SELECT 1;");
    writeFileSync(join(dir, FORMER_NAMES_FILE), JSON.stringify({ "001_b.sql": "002_b.sql" }));
    const folder = readMigrationFolder(dir);
    expect(folder.files).toEqual(["001_a.sql", "002_b.sql"]);
    expect([...folder.formerNames]).toEqual([["001_b.sql", "002_b.sql"]]);
    writeFileSync(join(dir, "002_c.sql"), "SELECT 1;");
    expect(() => readMigrationFolder(dir)).toThrow(/002_b\.sql and 002_c\.sql share one number/);
  });

  it("holds for every migrations folder of the repository", () => {
    const workspaces = (
      JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { workspaces: string[] }
    ).workspaces;
    const checked = workspaces.filter((ws) => {
      try {
        readMigrationFolder(join(REPO, ws, "migrations"));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw error;
      }
    });
    expect(checked).toEqual(expect.arrayContaining(["gateway", "services/ledger", "services/webhooks"]));
  });
});
