/**
 * The documentation check must report every planted dead link, dead anchor, dead backticked path and
 * citation, and stay quiet on the correct ones beside them. The trees are in memory except the last test,
 * which runs the command on a temporary git checkout.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { anchorsOf, checkTree, pathCandidate, type Tree } from "./check-docs.js";

const CHECKER = join(dirname(fileURLToPath(import.meta.url)), "check-docs.ts");
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

function tree(contents: Record<string, string>): Tree {
  const files = new Set(Object.keys(contents));
  const directories = new Set<string>();
  for (const f of files) for (let d = posix.dirname(f); d !== "."; d = posix.dirname(d)) directories.add(d);
  return { files, directories, read: (path) => contents[path] ?? "" };
}

const BASE = {
  "services/ledger/package.json": "{}",
  "services/ledger/src/store/statement.ts": "export {};",
  "docs/guide.md": "# Guide\n\n## Run it, twice\n\ntext\n",
};

describe("check-docs", () => {
  it("accepts live links, anchors and paths", () => {
    const problems = checkTree(
      tree({
        ...BASE,
        "README.md": [
          "See [the guide](docs/guide.md), [its section](docs/guide.md#run-it-twice) and [the web](https://x.org).",
          "The statement builder is `services/ledger/src/store/statement.ts`; `application/json` is no path.",
          "```",
          "[inside a fence](nowhere.md) and `services/nowhere.ts`",
          "```",
        ].join("\n"),
        "services/ledger/README.md":
          "Read `src/store/statement.ts` or `store/statement.ts`, [up](../../README.md).\n",
      }),
    );
    expect(problems).toEqual([]);
  });

  it("reports a dead link and a dead anchor with file and line", () => {
    const problems = checkTree(
      tree({
        ...BASE,
        "README.md": "intro\n[gone](docs/missing.md) and [bad anchor](docs/guide.md#nowhere)\n",
      }),
    );
    expect(problems).toEqual([
      { file: "README.md", line: 2, kind: "dead link", detail: "docs/missing.md" },
      { file: "README.md", line: 2, kind: "dead anchor", detail: "docs/guide.md#nowhere" },
    ]);
  });

  it("reports a backticked path that does not exist", () => {
    const problems = checkTree(
      tree({
        ...BASE,
        "README.md": "The builder is `services/ledger/src/store/statements.ts`.\n",
        "services/ledger/README.md": "Read `src/store/gone.ts`.\n",
      }),
    );
    expect(problems.map((p) => [p.file, p.kind, p.detail])).toEqual([
      ["README.md", "dead path", "`services/ledger/src/store/statements.ts`"],
      ["services/ledger/README.md", "dead path", "`src/store/gone.ts`"],
    ]);
  });

  /** The planted citations are put together at run time, so that this file itself cites nothing. */
  const cited = (...parts: string[]) => parts.join("");

  it("reports citations in Markdown and in code, and not ordinary uses of the words", () => {
    const problems = checkTree(
      tree({
        ...BASE,
        "docs/a.md": `As ${cited("DESIGN", ".md")} says.\n${cited("The se", "ed")} orders the checks.\nFixed in ${cited("iss", "ue 13")}.\n`,
        "services/ledger/src/x.ts":
          `// ${cited("se", "ed: Limits")}\n// see ${cited("find", "ing 4")}\n// a PRNG seed and an Ed25519 seed are fine\n// replay the seed a failure printed\n` +
          'function lcg(seed: number) {}\nconst a = fc.sample(x, { seed: 1 });\nit.each(xs)("t", (seed) => seed);\n',
      }),
    );
    expect(problems.map((p) => `${p.file}:${p.line}:${p.kind}`)).toEqual([
      "docs/a.md:1:citation",
      "docs/a.md:2:citation",
      "docs/a.md:3:citation",
      "services/ledger/src/x.ts:1:citation",
      "services/ledger/src/x.ts:2:citation",
    ]);
  });

  it("counts as paths only slash-separated text rooted in the repository or ending in an extension", () => {
    const top = new Set(["services", "gateway", ".ci"]);
    expect(pathCandidate("services/ledger/README.md", top)).toBe("services/ledger/README.md");
    expect(pathCandidate(".ci/run", top)).toBe(".ci/run");
    expect(pathCandidate("store/statement.ts:12", top)).toBe("store/statement.ts");
    expect(pathCandidate("services/<name>/README.md", top)).toBeUndefined();
    expect(pathCandidate("@payouts/client/admin", top)).toBeUndefined();
    expect(pathCandidate("gateway/dist/cli.js", top)).toBeUndefined();
    expect(pathCandidate("text/plain", top)).toBeUndefined();
    expect(pathCandidate("/admin/openapi.json", top)).toBeUndefined();
  });

  it("numbers repeated headings the way GitHub does", () => {
    expect([...anchorsOf('# A `b` c\n## Notes\n## Notes\n<a id="here"></a>\n')]).toEqual([
      "a-b-c",
      "notes",
      "notes-1",
      "here",
    ]);
  });

  it("fails as a command on a checkout with a planted problem and names it", () => {
    const dir = mkdtempSync(join(tmpdir(), "check-docs-"));
    try {
      mkdirSync(join(dir, "docs"));
      writeFileSync(join(dir, "docs", "a.md"), "[dead](b.md)\n");
      spawnSync("git", ["init", "-q"], { cwd: dir });
      const run = spawnSync(process.execPath, ["--import", "tsx", CHECKER, dir], {
        cwd: REPO,
        encoding: "utf8",
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("docs/a.md:1  dead link: b.md");
      writeFileSync(join(dir, "b.md"), "");
      writeFileSync(join(dir, "docs", "a.md"), "[live](../b.md)\n");
      const fixed = spawnSync(process.execPath, ["--import", "tsx", CHECKER, dir], {
        cwd: REPO,
        encoding: "utf8",
      });
      expect(fixed.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
