import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONNECT_ES_VERSION } from "./connect-es-pin.js";

const require = createRequire(import.meta.url);

/** The version of an installed package, from the package.json above its resolved entry point. */
function installedVersion(name: string): string {
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === name && manifest.version) return manifest.version;
    } catch {
      // No package.json at this level: look further up.
    }
  }
  throw new Error(`no package.json found for ${name}`);
}

describe("the connect-es pin", () => {
  it("is the version installed, for connect and connect-node alike", () => {
    expect(installedVersion("@connectrpc/connect")).toBe(CONNECT_ES_VERSION);
    expect(installedVersion("@connectrpc/connect-node")).toBe(CONNECT_ES_VERSION);
  });

  it("is exact (no range) in this package's manifest", () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8"));
    expect(manifest.dependencies["@connectrpc/connect"]).toBe(CONNECT_ES_VERSION);
    expect(manifest.dependencies["@connectrpc/connect-node"]).toBe(CONNECT_ES_VERSION);
  });
});
