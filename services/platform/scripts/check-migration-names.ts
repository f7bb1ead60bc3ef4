/**
 * `npm run lint:migrations`: every workspace's `migrations/` folder numbers each file once and renames only
 * to files that exist (migration-files.ts explains why a merge can otherwise break the order). Prints each
 * problem and exits 1; prints the folders checked and exits 0 when there is none.
 *
 *   node --conditions=source --import tsx services/platform/scripts/check-migration-names.ts [repo root]
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readMigrationFolder } from "../src/database/migration-files.js";

const root = resolve(process.argv[2] ?? ".");
const workspaces = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces: string[] })
  .workspaces;
const folders = workspaces.map((ws) => join(ws, "migrations")).filter((dir) => existsSync(join(root, dir)));

let failed = false;
for (const dir of folders) {
  try {
    readMigrationFolder(join(root, dir));
  } catch (error) {
    failed = true;
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  }
}
if (failed) process.exit(1);
process.stdout.write(`migration names ok: ${folders.join(", ")}\n`);
