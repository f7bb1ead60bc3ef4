import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import type { LabelSelector, Manifest } from "./k8s-types.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const helmDir = join(repoRoot, "deploy/helm");
export const chartDir = join(helmDir, "payouts");
export const releaseName = "payouts";
export const namespace = "payouts";

/** The helm binary install-tools.sh caches, else one on PATH; throws naming the installer when absent. */
export function findHelm(env: NodeJS.ProcessEnv = process.env): string {
  const cacheDir = env.PAYOUTS_CACHE_DIR ?? join(homedir(), ".cache/payouts");
  const candidates = [
    join(cacheDir, "bin/helm"),
    ...(env.PATH ?? "").split(delimiter).map((d) => join(d, "helm")),
  ];
  const found = candidates.find((path) => path !== "helm" && existsSync(path));
  if (found === undefined) {
    throw new Error(
      `helm not found in ${join(cacheDir, "bin")} or on PATH: run deploy/helm/install-tools.sh first ` +
        "(it builds Helm from the Go module proxy into the cache)",
    );
  }
  return found;
}

export interface HelmResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `helm template payouts deploy/helm/payouts --namespace payouts <args>`, output captured. */
export function helmTemplate(args: readonly string[]): HelmResult {
  const result = spawnSync(
    findHelm(),
    ["template", releaseName, chartDir, "--namespace", namespace, ...args],
    {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** helm arguments for values files in deploy/helm/ and --set pairs. */
export function valuesArgs(valuesFiles: readonly string[], sets: readonly string[] = []): string[] {
  return [...valuesFiles.flatMap((f) => ["-f", join(helmDir, f)]), ...sets.flatMap((s) => ["--set", s])];
}

/** Renders the chart with values files from deploy/helm/ (plus --set pairs) and parses every document. */
export function renderChart(valuesFiles: readonly string[], sets: readonly string[] = []): Manifest[] {
  const args = valuesArgs(valuesFiles, sets);
  const result = helmTemplate(args);
  if (result.status !== 0) throw new Error(`helm template ${args.join(" ")} failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors[0]?.message}`);
    const value: unknown = doc.toJS();
    return value === null || value === undefined ? [] : [value as Manifest];
  });
}

export function ofKind<T extends Manifest>(manifests: readonly Manifest[], kind: string): T[] {
  return manifests.filter((m) => m.kind === kind) as T[];
}

/** Whether a matchLabels selector selects an object with these labels (empty selector selects all). */
export function selects(
  selector: LabelSelector | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  return Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels?.[key] === value);
}
