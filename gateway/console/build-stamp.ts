import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The console package's folder. */
export const CONSOLE_ROOT = fileURLToPath(new URL(".", import.meta.url));
/** Where `vite build` writes the app; the gateway serves this folder at /console. */
export const CONSOLE_DIST = join(CONSOLE_ROOT, "dist");
/** Written last by the build: the fingerprint of the inputs the files in dist/ were built from. */
export const STAMP_FILE = "build-stamp.json";

/** Everything a build depends on: the sources, the page, the build config and the installed dependencies. */
const INPUTS = [
  "index.html",
  "package.json",
  "vite.config.ts",
  "build-stamp.ts",
  "src",
  "../../package-lock.json",
];

/** A SHA-256 over every input file's path and bytes, in a fixed order. */
export function sourceFingerprint(root = CONSOLE_ROOT): string {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap((input) => filesUnder(join(root, input))).sort()) {
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

/** The fingerprint recorded by the last build in `dist`, or undefined when there is no complete build. */
export function builtFingerprint(dist = CONSOLE_DIST): string | undefined {
  const stamp = join(dist, STAMP_FILE);
  if (!existsSync(stamp) || !existsSync(join(dist, "index.html"))) return undefined;
  return (JSON.parse(readFileSync(stamp, "utf8")) as { fingerprint?: string }).fingerprint;
}

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}
