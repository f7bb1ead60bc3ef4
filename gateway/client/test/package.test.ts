/**
 * The package as it is published: a public manifest with only its entry points, and code that uses no
 * Node-only API, so it runs in Deno, Bun, browsers and edge runtimes as well as Node.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8"));

/** Node-only APIs, as they appear in emitted JavaScript. */
const NODE_ONLY: readonly [RegExp, string][] = [
  [
    /\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\bfrom\s*["'](fs|path|crypto|http|https|os|buffer|url|stream|util)["']/,
    "a Node built-in module",
  ],
  [/\brequire\s*\(/, "require()"],
  [/\bBuffer\b/, "Buffer"],
  [/\bprocess\b/, "process"],
  [/\b__dirname\b|\b__filename\b/, "__dirname / __filename"],
  [/\bsetImmediate\b/, "setImmediate"],
];

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(dir, name));
}

function nodeOnlyUses(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return NODE_ONLY.filter(([pattern]) => pattern.test(text)).map(([, what]) => `${file}: ${what}`);
}

describe("the published manifest", () => {
  it("is public, Apache-2.0, ESM, and exports only its entry points with types", () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe("Apache-2.0");
    expect(manifest.type).toBe("module");
    expect(manifest.files).toEqual(["dist", "src", "openapi", "README.md"]);
    expect(Object.keys(manifest.exports)).toEqual([".", "./admin", "./package.json"]);
    const entryPoints = Object.keys(manifest.exports).filter((key) => key !== "./package.json");
    expect(entryPoints.every((key) => !key.includes("*"))).toBe(true);
    for (const key of entryPoints) {
      const target = manifest.exports[key];
      expect(Object.keys(target)).toEqual(["source", "types", "default"]);
      expect(target.types).toMatch(/^\.\/dist\/.+\.d\.ts$/);
      expect(target.default).toMatch(/^\.\/dist\/.+\.js$/);
    }
  });

  it("depends at runtime on openapi-fetch only, never on another @payouts package", () => {
    expect(Object.keys(manifest.dependencies)).toEqual(["openapi-fetch"]);
    expect(JSON.stringify(manifest.peerDependencies ?? {})).not.toContain("@payouts/");
  });
});

describe("the packed tarball", () => {
  /** Every file an `exports` condition names, whatever the condition (`source`, `types`, `default`). */
  function exportTargets(value: unknown): string[] {
    if (typeof value === "string") return [value.replace(/^\.\//, "")];
    if (typeof value !== "object" || value === null) return [];
    return Object.values(value).flatMap(exportTargets);
  }

  it("holds every file any export condition names (npm pack --dry-run)", () => {
    if (!readdirSync(PACKAGE_DIR).includes("dist")) {
      const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
      execFileSync(process.execPath, [tsc, "-p", join(PACKAGE_DIR, "tsconfig.build.json")], {
        stdio: "pipe",
      });
    }
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json"], {
        cwd: PACKAGE_DIR,
        encoding: "utf8",
        stdio: "pipe",
      }),
    );
    const files = new Set((packed[0].files as { path: string }[]).map((file) => file.path));
    const targets = exportTargets(manifest.exports);
    expect(targets).toEqual(expect.arrayContaining(["src/index.ts", "dist/index.js", "dist/admin.d.ts"]));
    expect(targets.filter((target) => !files.has(target))).toEqual([]);
    expect([...files].filter((file) => file.includes(".test."))).toEqual([]);
  }, 120_000);
});

describe("no Node-only API", () => {
  const outDir = mkdtempSync(join(tmpdir(), "payouts-client-build-"));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("builds with Web APIs only (lib ES2022 + DOM, no Node types) into JS without Node-only APIs", () => {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    // Without @types/node a Buffer, process or node:* import is a compile error; the scan below also
    // catches what slips past the types (a global reached through globalThis, an `any`).
    execFileSync(
      process.execPath,
      [tsc, "-p", join(PACKAGE_DIR, "tsconfig.build.json"), "--outDir", outDir],
      {
        stdio: "pipe",
      },
    );
    const emitted = filesUnder(outDir, ".js");
    const names = emitted.map((file) => file.slice(outDir.length + 1));
    expect(names).toEqual(expect.arrayContaining(["index.js", "admin.js"]));
    expect(emitted.flatMap(nodeOnlyUses)).toEqual([]);
  }, 120_000);

  it("holds for the sources (the generated types aside: only types, whose API descriptions are prose)", () => {
    const sources = filesUnder(join(PACKAGE_DIR, "src"), ".ts").filter(
      (file) => !file.includes("/generated/"),
    );
    expect(sources.length).toBeGreaterThan(4);
    expect(sources.flatMap(nodeOnlyUses)).toEqual([]);
  });

  it("holds for the runtime dependency, whose one `process` is a typeof-guarded feature check", () => {
    const entry = createRequire(join(PACKAGE_DIR, "package.json")).resolve("openapi-fetch");
    const text = readFileSync(entry.replace(/\.cjs$/, ".mjs"), "utf8");
    const guarded = text.replaceAll(/typeof process === "object" && [^\n]*process\.versions\.undici/g, "");
    const leftovers = NODE_ONLY.filter(([pattern]) => pattern.test(guarded)).map(([, what]) => what);
    expect(leftovers).toEqual([]);
  });
});
