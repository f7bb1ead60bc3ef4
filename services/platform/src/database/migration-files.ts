import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The names of a migrations folder: `NNN_title.sql` files, applied in lexical order, each number used once,
 * and `former-names.json`, the explicit map of files renamed after they may have been applied somewhere
 * (former name → current name). The runner (migrate.ts) renames the bookkeeping rows of those files before
 * it applies anything, so a database that applied a file under its former name does not apply it again.
 *
 * Why one number per file: two branches may each add the next number (`012_a.sql` on one, `012_b.sql` on
 * the other). Git merges both without a conflict, since the names differ, and the order between them would
 * then rest on their titles. `migrationNameProblems` refuses such a folder, and it runs in three places:
 * `npm run lint` (`lint:migrations`, services/platform/scripts/check-migration-names.ts, also in CI), the
 * unit test beside this file, and the runner itself before it touches the database. The fix is to renumber
 * the later file; if it was applied anywhere already, add its former name to `former-names.json`.
 */
export const FORMER_NAMES_FILE = "former-names.json";

const MIGRATION_FILE = /^(\d+)_.+\.sql$/;

export interface MigrationFolder {
  /** The migration files in the order they apply. */
  readonly files: readonly string[];
  /** Former file name → current file name. */
  readonly formerNames: ReadonlyMap<string, string>;
}

/**
 * Everything wrong with a folder's names, given its listing and its former-names map: a number used by two
 * files, a rename to a file that does not exist, a former name that is still a file, a current name that is
 * also a former one (renames are applied one by one, so they must not chain).
 */
export function migrationNameProblems(
  listing: readonly string[],
  formerNames: Readonly<Record<string, string>>,
): string[] {
  const problems: string[] = [];
  const files = listing.filter((name) => MIGRATION_FILE.test(name)).sort();
  const byNumber = new Map<number, string[]>();
  for (const file of files) {
    const number = Number(MIGRATION_FILE.exec(file)?.[1]);
    byNumber.set(number, [...(byNumber.get(number) ?? []), file]);
  }
  for (const same of byNumber.values()) {
    if (same.length > 1) problems.push(`${same.join(" and ")} share one number: renumber the later one`);
  }
  for (const [former, current] of Object.entries(formerNames)) {
    if (typeof current !== "string" || !files.includes(current)) {
      problems.push(
        `${FORMER_NAMES_FILE}: ${former} is renamed to ${String(current)}, which is not a migration`,
      );
    }
    if (files.includes(former)) problems.push(`${FORMER_NAMES_FILE}: ${former} is still a file`);
    if (typeof current === "string" && current in formerNames) {
      problems.push(`${FORMER_NAMES_FILE}: ${current} is both a current and a former name`);
    }
  }
  return problems;
}

/** Reads a migrations folder; throws with every problem of its names (`migrationNameProblems`). */
export function readMigrationFolder(dir: string): MigrationFolder {
  const listing = readdirSync(dir);
  const formerFile = join(dir, FORMER_NAMES_FILE);
  const formerNames: unknown = existsSync(formerFile) ? JSON.parse(readFileSync(formerFile, "utf8")) : {};
  if (typeof formerNames !== "object" || formerNames === null || Array.isArray(formerNames)) {
    throw new Error(`${formerFile} must be one object of former name → current name`);
  }
  const problems = migrationNameProblems(listing, formerNames as Record<string, string>);
  if (problems.length > 0) throw new Error(`migrations in ${dir}: ${problems.join("; ")}`);
  return {
    files: listing.filter((name) => MIGRATION_FILE.test(name)).sort(),
    formerNames: new Map(Object.entries(formerNames as Record<string, string>)),
  };
}
