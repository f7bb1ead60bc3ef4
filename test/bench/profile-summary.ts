/**
 * Summarises V8 CPU profiles written by `npm run bench -- --profile`: the functions with the most self
 * time, and the share of time spent idle, in garbage collection and per package.
 *   node --import tsx test/bench/profile-summary.ts test/bench/out/profiles/gateway.cpuprofile [top]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** Self time per function ("name url:line"), largest first. */
  readonly functions: ReadonlyArray<{ readonly name: string; readonly ms: number }>;
  /** Self time per package (node_modules/<pkg>, node: internals, the repo's workspaces). */
  readonly packages: ReadonlyArray<{ readonly name: string; readonly ms: number }>;
}

export function summariseProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    totalMs += ms;
    const name = `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const pkg = packageOf(frame.url, frame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) =>
    [...m].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return { totalMs, functions: sorted(functions), packages: sorted(packages) };
}

/** node_modules/<scope/name>, node:<module>, the workspace (services/x, gateway, proto) or a V8 pseudo-frame. */
export function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith("node:")) return url;
  const workspace = /\/(services\/[^/]+|gateway|proto)\//.exec(url);
  return workspace ? workspace[1]! : url;
}

function shortUrl(url: string): string {
  return url.replace(/^file:\/\/.*?\/(node_modules|services|gateway|proto)\//, "$1/");
}

function main(): void {
  const [file, top = "25"] = process.argv.slice(2);
  if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
  const summary = summariseProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile);
  const line = (name: string, ms: number) =>
    `${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)} %  ${name}`;
  process.stdout.write(`${file}: ${summary.totalMs.toFixed(0)} ms sampled\n\nby package:\n`);
  for (const p of summary.packages.slice(0, 15)) process.stdout.write(`${line(p.name, p.ms)}\n`);
  process.stdout.write("\nby function (self time):\n");
  for (const f of summary.functions.slice(0, Number(top))) process.stdout.write(`${line(f.name, f.ms)}\n`);
}

if (process.argv[1]?.endsWith("profile-summary.ts")) main();
