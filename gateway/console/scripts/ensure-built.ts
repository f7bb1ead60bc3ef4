/**
 * `npm start` runs this first: it builds the console when dist/ is missing or was built from other sources
 * (a fresh clone, a pull, an edit), and does nothing otherwise. A failed build does not stop the platform
 * from starting; the start banner then says the console is not available.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtFingerprint, CONSOLE_DIST, CONSOLE_ROOT, sourceFingerprint } from "../build-stamp.js";

export type EnsureOutcome = "up-to-date" | "built" | "failed";

export function ensureConsoleBuilt(
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): EnsureOutcome {
  if (builtFingerprint(CONSOLE_DIST) === sourceFingerprint()) return "up-to-date";
  log("Building the operator console (first start, or its sources changed)…");
  const vite = join(dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin", "vite.js");
  const run = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
    cwd: CONSOLE_ROOT,
    stdio: "inherit",
  });
  if (run.status === 0 && builtFingerprint(CONSOLE_DIST) !== undefined) return "built";
  log(`The console build failed (exit ${run.status ?? run.signal}); the platform starts without it.`);
  return "failed";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureConsoleBuilt();
