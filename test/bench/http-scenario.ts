import type { HttpScenarioResult } from "./bench-results.js";
import { type LoadResult, runLoad } from "./load-generator.js";
import type { Workload } from "./partner-workload.js";
import type { ProcessMonitor } from "./process-stats.js";

export interface HttpScenario {
  readonly name: string;
  readonly mode: HttpScenarioResult["mode"];
  readonly baseUrl: string;
  readonly workload: Workload;
}

export interface HttpRunSettings {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly monitor: ProcessMonitor;
  /** Unintended errors (warm-up included) are reported here. */
  readonly problems: string[];
  readonly log: (line: string) => void;
}

/** A warm-up run (not recorded, but its errors count), then the measured run with process usage. */
export async function runHttpScenario(
  scenario: HttpScenario,
  settings: HttpRunSettings,
): Promise<HttpScenarioResult> {
  const spec = {
    baseUrl: scenario.baseUrl,
    connections: settings.connections,
    next: scenario.workload.next,
    ...(scenario.workload.onAnswer ? { onAnswer: scenario.workload.onAnswer } : {}),
  };
  const label = `${scenario.name} (${scenario.mode})`;
  if (settings.warmupSeconds > 0) {
    const warmup = await runLoad({ ...spec, durationSeconds: settings.warmupSeconds });
    // A short warm-up on a busy machine may end before the first answer: only its errors are problems.
    noteProblems(`${label} warm-up`, warmup, settings.problems, { needsSuccess: false });
  }
  settings.monitor.begin();
  const load = await runLoad({ ...spec, durationSeconds: settings.durationSeconds });
  const processes = settings.monitor.end();
  noteProblems(label, load, settings.problems);
  settings.log(
    `${label}: ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms, ` +
      `${load.ok} ok, ${load.intendedErrors} intended, ${load.unintendedErrors} unintended${load.exhausted ? " (inputs ran out)" : ""}`,
  );
  return { name: scenario.name, mode: scenario.mode, connections: settings.connections, load, processes };
}

function noteProblems(
  label: string,
  load: LoadResult,
  problems: string[],
  options: { needsSuccess: boolean } = { needsSuccess: true },
): void {
  if (load.unintendedErrors > 0) {
    problems.push(
      `${label}: ${load.unintendedErrors} unintended errors (statuses ${JSON.stringify(load.statusCounts)}); e.g. ${load.errorSamples.join(" | ")}`,
    );
  }
  if (options.needsSuccess && load.ok === 0) problems.push(`${label}: no successful request`);
}
