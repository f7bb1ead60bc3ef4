/** The migration set a service package ships: its `migrations/` folder, beside the folder of its code. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MigrationSet } from "./migrate.js";

/** `moduleUrl` is the `import.meta.url` of a module directly in the package's src/ (or dist/). */
export function packageMigrations(schema: string, moduleUrl: string): MigrationSet {
  return { schema, dir: join(dirname(fileURLToPath(moduleUrl)), "..", "migrations") };
}
