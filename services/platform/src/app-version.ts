import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The product version: the version of the repository's root package.json (not this package's). The webhook
 * dispatcher's notification User-Agent and the OpenAPI document's `info.version` carry it.
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
