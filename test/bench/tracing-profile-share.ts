/**
 * How much of a process's busy CPU time OpenTelemetry accounts for, from V8 CPU profiles (tracing-cost.ts
 * --profile, or the bench's --profile). A sample counts as OpenTelemetry's when the first frame with a
 * source above it (leaving out node: internals and native frames, which are what the code calls: random
 * ids, AsyncLocalStorage, hrtime) is in an @opentelemetry package. A share of one process's own profile
 * is far less sensitive to the other load on the machine than CPU ms per request.
 *
 *   node --import tsx test/bench/tracing-profile-share.ts [--last SECONDS] <a.cpuprofile> [...]
 *
 * `--last 26` keeps the last 26 s of each profile: tracing-cost.ts's load (2 × (3 + 10) s) is what a
 * profiled process does last before it is stopped, so start-up and seeding are left out.
 */
import { readFileSync } from "node:fs";
import type { CpuProfile } from "./profile-summary.js";

interface Node {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly parent?: number;
}

export interface TracingShare {
  /** Sampled time that is not idle, ms. */
  readonly busyMs: number;
  /** Of which OpenTelemetry's, ms. */
  readonly otelMs: number;
  /** OpenTelemetry's time by the function that accounts for it, largest first. */
  readonly byFunction: ReadonlyArray<{ readonly name: string; readonly ms: number }>;
}

/** `lastSeconds`: only the samples of the profile's last seconds (the load, not the start-up's imports). */
export function tracingShare(profile: CpuProfile, lastSeconds = Number.POSITIVE_INFINITY): TracingShare {
  const nodes = new Map<number, Node>();
  for (const n of profile.nodes) nodes.set(n.id, { callFrame: n.callFrame });
  for (const n of profile.nodes) {
    for (const child of n.children ?? []) nodes.set(child, { ...nodes.get(child)!, parent: n.id });
  }
  const owner = new Map<number, string | null>();
  const ownerOf = (id: number): string | null => {
    const known = owner.get(id);
    if (known !== undefined) return known;
    let at: number | undefined = id;
    let found: string | null = null;
    while (at !== undefined) {
      const node: Node = nodes.get(at)!;
      const { url, functionName, lineNumber } = node.callFrame;
      if (url && !url.startsWith("node:")) {
        if (url.includes("/@opentelemetry/")) {
          found = `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "")}:${lineNumber + 1}`;
        }
        break;
      }
      at = node.parent;
    }
    owner.set(id, found);
    return found;
  };
  const stamps: number[] = [];
  let now = 0;
  for (const delta of profile.timeDeltas) {
    now += delta;
    stamps.push(now);
  }
  const from = now - lastSeconds * 1e6;
  let busyMs = 0;
  let otelMs = 0;
  const byFunction = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    if ((stamps[i] ?? 0) < from) return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const name = nodes.get(id)?.callFrame.functionName;
    if (name === "(idle)" || name === "(program)") return;
    busyMs += ms;
    const otel = ownerOf(id);
    if (otel === null) return;
    otelMs += ms;
    byFunction.set(otel, (byFunction.get(otel) ?? 0) + ms);
  });
  return {
    busyMs,
    otelMs,
    byFunction: [...byFunction].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms),
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const last = args[0] === "--last" ? Number(args[1]) : Number.POSITIVE_INFINITY;
  for (const file of args[0] === "--last" ? args.slice(2) : args) {
    const share = tracingShare(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, last);
    const pct = (100 * share.otelMs) / share.busyMs;
    process.stdout.write(
      `${file}: busy ${share.busyMs.toFixed(0)} ms, OpenTelemetry ${share.otelMs.toFixed(0)} ms (${pct.toFixed(1)} %)\n`,
    );
    for (const f of share.byFunction.slice(0, 12)) {
      process.stdout.write(`  ${f.ms.toFixed(0).padStart(6)} ms  ${f.name}\n`);
    }
  }
}

if (process.argv[1]?.endsWith("tracing-profile-share.ts")) main();
