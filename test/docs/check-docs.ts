/**
 * The documentation check of `npm run lint` (`npm run lint:docs`). It fails on:
 *
 * - a relative Markdown link whose file does not exist, or whose `#anchor` names no heading of that file;
 * - a backticked repository path in Markdown that does not exist (see `pathCandidate` for what counts);
 * - a citation of something a reader of the repository cannot open (a design note kept elsewhere, the
 *   original brief, an issue or finding number), in Markdown and in code.
 *
 * Files are the ones git knows (tracked, plus new files not ignored), so build output and local data are
 * never read. Run: `node --import tsx test/docs/check-docs.ts [repository root]`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export type ProblemKind = "dead link" | "dead anchor" | "dead path" | "citation";

export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly kind: ProblemKind;
  readonly detail: string;
}

/** The files a check can see: repository-relative paths with forward slashes. */
export interface Tree {
  readonly files: ReadonlySet<string>;
  readonly directories: ReadonlySet<string>;
  read(path: string): string;
}

/** Extensions that make backticked text a path even when it starts inside a package (`src/x.ts`). */
const PATH_EXTENSIONS =
  /\.(ts|tsx|js|mjs|cjs|json|md|sh|ya?ml|sql|proto|tpl|png|svg|html|css|toml|txt|conf|properties)$/;
/** Segments of paths that name build output or local data, never committed. */
const UNTRACKED_SEGMENTS = new Set(["dist", "node_modules", ".data", ".cache", ".local", "out"]);
/** Text files searched for citations, besides Markdown. */
const CODE_FILES = /(\.(ts|tsx|js|mjs|cjs|sh|ya?ml|sql|proto|tpl|json|html|css)|Dockerfile|\/run)$/;
/** Files that may hold the patterns: this check, its test, and the lockfile. */
const CITATION_EXEMPT = new Set([
  "test/docs/check-docs.ts",
  "test/docs/check-docs.test.ts",
  "package-lock.json",
]);

/**
 * Citations of what lies outside the repository. Each pattern is written so that ordinary words and code
 * stay allowed: "seed" alone (a PRNG seed, an Ed25519 seed, seeding the sandbox) and code such as
 * `(seed) =>`, `seed: number` or `{ seed: 1 }` are fine; the word naming a source document (after "the",
 * in parentheses, or followed by a colon and prose) is not.
 */
const CITATIONS: readonly { readonly pattern: RegExp; readonly what: string; readonly unless?: RegExp }[] = [
  { pattern: /\bDESIGN\.md\b/, what: "a design note that is not in the repository" },
  {
    pattern:
      /\bthe seed\b|\bseed's\b|\bseed (?:rules?|keys|contracts?)\b|(?<![\w$.])\(seed\)(?!\s*=>)|(?:^|[(\s*/])seed:\s(?!\s*(?:number|string|bigint|boolean|\d|Number\())/i,
    what: "the original brief (write the fact itself)",
    // A random generator's seed, as property tests print and replay it, is not a citation.
    unless: /random|prng|replay|fuzz|failing|failure|counterexample|[A-Z]+_SEED\b/i,
  },
  { pattern: /\bissues?\s+#?\d+\b/i, what: "an issue number" },
  { pattern: /\bfindings?\s+#?\d+\b/i, what: "a finding number" },
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** Every anchor a Markdown text defines: headings (with GitHub's -1, -2 for repeats) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading) {
      const base = slug(heading[1] ?? "");
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const id of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1] ?? "");
  }
  return anchors;
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | undefined;
  markdown.split("\n").forEach((text, index) => {
    const marker = /^\s*(```|~~~)/.exec(text)?.[1];
    if (marker && (fence === undefined || fence === marker)) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/**
 * The repository path backticked text names, or undefined when it is not a path. A path has no spaces,
 * contains a `/`, and either starts with a top-level entry of the repository (resolved from the root) or
 * ends in a file extension (resolved from the Markdown file's folder, its package, the package's `src/`,
 * then the root). Text with
 * placeholders or globs (`<name>`, `*`, `{a,b}`, `$VAR`, `…`), absolute or URL-like text, package names
 * (`@scope/name`) and build output (`dist/`, `node_modules/`) are not checked.
 */
export function pathCandidate(code: string, topLevel: ReadonlySet<string>): string | undefined {
  const text = code
    .trim()
    .replace(/:\d+(-\d+)?$/, "")
    .replace(/#.*$/, "");
  if (!text.includes("/") || /\s/.test(text)) return undefined;
  if (/[<>*{}$…|?=,;"'()[\]]|\.\.\.|^[/@~]|:\/\//.test(text)) return undefined;
  const segments = text.split("/").filter((s) => s !== "");
  if (segments.some((s) => UNTRACKED_SEGMENTS.has(s))) return undefined;
  if (topLevel.has(segments[0] ?? "") || PATH_EXTENSIONS.test(text)) return text.replace(/\/$/, "");
  return undefined;
}

function exists(tree: Tree, path: string): boolean {
  return tree.files.has(path) || tree.directories.has(path);
}

/** The folder of the nearest package.json above a file, or the root. */
function packageRoot(tree: Tree, file: string): string {
  let dir = posix.dirname(file);
  while (dir !== "." && !tree.files.has(`${dir}/package.json`)) dir = posix.dirname(dir);
  return dir;
}

function resolvePath(
  tree: Tree,
  file: string,
  path: string,
  topLevel: ReadonlySet<string>,
): string | undefined {
  const first = path.split("/")[0] ?? "";
  const pkg = packageRoot(tree, file);
  const bases = topLevel.has(first) ? ["."] : [posix.dirname(file), pkg, posix.join(pkg, "src"), "."];
  for (const base of bases) {
    const candidate = posix.normalize(posix.join(base, path));
    if (exists(tree, candidate)) return candidate;
  }
  return undefined;
}

/** Dead links, dead anchors and dead backticked paths of one Markdown file. */
export function checkMarkdown(tree: Tree, file: string, topLevel: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  const text = tree.read(file);
  for (const { text: line, line: number } of proseLines(text)) {
    const withoutCode = line.replace(/`[^`]*`/g, "``");
    const targets = [
      ...[...withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? ""),
      ...[...withoutCode.matchAll(/^\s*\[[^\]]+\]:\s+(\S+)/g)].map((m) => m[1] ?? ""),
    ];
    for (const target of targets) {
      const problem = checkLink(tree, file, target);
      if (problem) problems.push({ file, line: number, ...problem });
    }
    for (const code of line.matchAll(/`([^`\n]+)`/g)) {
      const path = pathCandidate(code[1] ?? "", topLevel);
      if (path !== undefined && resolvePath(tree, file, path, topLevel) === undefined) {
        problems.push({ file, line: number, kind: "dead path", detail: `\`${path}\`` });
      }
    }
  }
  return problems;
}

function checkLink(tree: Tree, file: string, target: string): Omit<Problem, "file" | "line"> | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return undefined;
  const [rawPath = "", anchor] = target.split("#", 2);
  const path = decodeURIComponent(rawPath);
  const resolved =
    path === "" ? file : posix.normalize(posix.join(posix.dirname(file), path)).replace(/\/$/, "");
  if (path.startsWith("/") || !exists(tree, resolved)) return { kind: "dead link", detail: target };
  if (anchor && resolved.endsWith(".md") && !anchorsOf(tree.read(resolved)).has(anchor.toLowerCase())) {
    return { kind: "dead anchor", detail: target };
  }
  return undefined;
}

/** Citations of what a reader of the repository cannot open, in any text file. */
export function findCitations(file: string, text: string): Problem[] {
  if (CITATION_EXEMPT.has(file)) return [];
  const problems: Problem[] = [];
  text.split("\n").forEach((line, index) => {
    for (const { pattern, what, unless } of CITATIONS) {
      const match = pattern.exec(line);
      if (match && !unless?.test(line))
        problems.push({ file, line: index + 1, kind: "citation", detail: `"${match[0]}": ${what}` });
    }
  });
  return problems;
}

/** Every problem in a tree: Markdown links and paths, then citations in Markdown and code. */
export function checkTree(tree: Tree): Problem[] {
  const topLevel = new Set([...tree.files, ...tree.directories].map((p) => p.split("/")[0] ?? ""));
  const problems: Problem[] = [];
  for (const file of [...tree.files].sort()) {
    if (file.endsWith(".md")) problems.push(...checkMarkdown(tree, file, topLevel));
    if (file.endsWith(".md") || CODE_FILES.test(file)) problems.push(...findCitations(file, tree.read(file)));
  }
  return problems;
}

/** The tree git sees in a checkout: tracked files and new ones that are not ignored, minus deleted ones. */
export function gitTree(root: string): Tree {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  })
    .split("\0")
    .filter((f) => f !== "" && existsSync(join(root, f)));
  const files = new Set(listed);
  const directories = new Set<string>();
  for (const f of files) {
    for (let d = posix.dirname(f); d !== "."; d = posix.dirname(d)) directories.add(d);
  }
  return { files, directories, read: (path) => readFileSync(join(root, normalize(path)), "utf8") };
}

/** The report printed by the command: Markdown problems first, then citations in code, each grouped. */
export function formatReport(problems: readonly Problem[]): string {
  const groups: [string, Problem[]][] = [
    ["Dead relative links", problems.filter((p) => p.kind === "dead link" || p.kind === "dead anchor")],
    ["Dead backticked paths", problems.filter((p) => p.kind === "dead path")],
    ["Citations in Markdown", problems.filter((p) => p.kind === "citation" && p.file.endsWith(".md"))],
    ["Citations in code", problems.filter((p) => p.kind === "citation" && !p.file.endsWith(".md"))],
  ];
  return groups
    .filter(([, list]) => list.length > 0)
    .map(([title, list]) => {
      const files = new Set(list.map((p) => p.file)).size;
      const lines = list.map(
        (p) => `  ${p.file}:${p.line}  ${p.kind === "citation" ? "" : `${p.kind}: `}${p.detail}`,
      );
      return `${title} (${list.length} in ${files} file${files === 1 ? "" : "s"}):\n${lines.join("\n")}`;
    })
    .join("\n\n");
}

const invokedDirectly =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", ".."));
  const problems = checkTree(gitTree(root));
  if (problems.length > 0) {
    console.error(formatReport(problems));
    console.error(`\ncheck-docs: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log("check-docs: links, paths and citations ok");
}
