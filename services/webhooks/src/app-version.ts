import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The `<APP_VERSION>` of the notification User-Agent: the version of the repository's root package.json
 * (the product version, not this package's), read once when the dispatcher is created.
 */
export function readAppVersion(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // src/ (sources) and dist/ (build) are both two levels below the package, three below the root.
  const path = join(here, "..", "..", "..", "package.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as { version?: unknown };
  if (typeof manifest.version !== "string" || manifest.version === "") {
    throw new Error(`${path} has no version; set APP_VERSION`);
  }
  return manifest.version;
}
