import type {
  BatchResult,
  HttpScenarioResult,
  NoisyNeighbourResult,
  StatementDownloadResult,
  TargetCheck,
  WebhookPhaseResult,
} from "./bench-results.js";
import { cpuMsPerRequest } from "./results-report.js";
import { checkWebhookTargets } from "./webhook-targets.js";

/** Names of the platform's processes in the distributed topology (peak RSS target 150 MB each). */
export const SERVICE_PROCESSES = [
  "gateway",
  "lookup",
  "pricing",
  "ledger",
  "webhooks",
  "sandbox-rail",
] as const;
export const EMBEDDED_PROCESS = "embedded";

const SERVICE_RSS_LIMIT_MB = 150;
/** A day downloaded as CSV through the gateway: its speed, and how far the gateway's resident set may rise. */
const STATEMENT_DOWNLOAD_MIN_LINES_PER_SECOND = 20_000;
const STATEMENT_DOWNLOAD_RSS_RISE_LIMIT_MB = 50;
const EMBEDDED_RSS_LIMIT_MB = 400;
/** A batch's items accepted per second as a fraction of single executePayout calls per second. */
const BATCH_RATE_TARGET = 0.8;
/** The partner endpoints whose tail latency is held to 4 × their median. */
const ENDPOINTS = [
  "previewQuotations",
  "lookupPaymentCode",
  "getQuotation",
  "executePayout",
  "listTransactions",
] as const;

/** The benchmark's targets, checked against what was measured (never fails the run). */
export function checkTargets(
  http: readonly HttpScenarioResult[],
  webhooks: readonly WebhookPhaseResult[],
  peakRssMb: Readonly<Record<string, number>>,
  noisy?: NoisyNeighbourResult,
  statementDownload?: StatementDownloadResult,
  batch?: BatchResult,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const scenario = (name: string) => http.find((s) => s.name === name && s.mode === "distributed");
  const throughput = (name: string, minimum: number) => {
    const s = scenario(name);
    if (!s) return;
    checks.push({
      target: `${name} ≥ ${minimum} req/s`,
      measured: `${fixed(s.load.requestsPerSecond, 0)} req/s`,
      met: s.load.requestsPerSecond >= minimum,
    });
  };
  const cpu = (name: string, maximumMs: number) => {
    const s = scenario(name);
    const ms = s ? cpuMsPerRequest(s) : undefined;
    if (ms === undefined) return;
    checks.push({
      target: `${name} ≤ ${maximumMs} ms CPU per request (all processes)`,
      measured: `${fixed(ms, 2)} ms`,
      met: ms <= maximumMs,
    });
  };

  const preview = scenario("previewQuotations");
  if (preview?.floor) {
    checks.push({
      target: "previewQuotations ≥ 60 % of the best one-hop floor",
      measured: `${pct(preview.floor.ratio)} of ${preview.floor.name}`,
      met: preview.floor.ratio >= 0.6,
    });
  }
  for (const name of ["lookupPaymentCode", "getQuotation"]) {
    throughput(name, 600);
    cpu(name, 2.5);
  }
  cpu("listTransactions", 1.5);
  throughput("executePayout", 400);
  cpu("executePayout", 4);
  const execute = scenario("executePayout");
  if (execute?.baseline) {
    checks.push({
      target: `executePayout ≥ 25 % of ${execute.baseline.name} tps`,
      measured: pct(execute.baseline.ratio),
      met: execute.baseline.ratio >= 0.25,
    });
  }
  if (execute) {
    checks.push({
      target: "executePayout: no errors other than the intended ones",
      measured: `${execute.load.unintendedErrors} unintended, ${execute.load.intendedErrors} intended`,
      met: execute.load.unintendedErrors === 0,
    });
  }
  for (const name of ENDPOINTS) {
    const s = scenario(name);
    if (!s) continue;
    const { p50, p99 } = s.load.latencyMs;
    checks.push({
      target: `${name} p99 ≤ 4 × p50`,
      measured: `p99 ${fixed(p99, 0)} ms, p50 ${fixed(p50, 0)} ms (${fixed(p50 > 0 ? p99 / p50 : 0, 1)} ×)`,
      met: p99 <= 4 * p50,
    });
  }
  checks.push(...checkWebhookTargets(webhooks, noisy));
  if (statementDownload) checks.push(...checkStatementDownload(statementDownload));
  if (batch) checks.push(checkBatch(batch));
  const services = SERVICE_PROCESSES.filter((name) => peakRssMb[name] !== undefined);
  if (services.length > 0) {
    const worst = Math.max(...services.map((name) => peakRssMb[name] ?? 0));
    const worstName = services.find((name) => peakRssMb[name] === worst);
    checks.push({
      target: `each service's RSS ≤ ${SERVICE_RSS_LIMIT_MB} MB under load`,
      measured: `highest ${fixed(worst, 0)} MB (${worstName})`,
      met: worst <= SERVICE_RSS_LIMIT_MB,
    });
  }
  const embedded = peakRssMb[EMBEDDED_PROCESS];
  if (embedded !== undefined) {
    checks.push({
      target: `embedded mode RSS ≤ ${EMBEDDED_RSS_LIMIT_MB} MB`,
      measured: `${fixed(embedded, 0)} MB`,
      met: embedded <= EMBEDDED_RSS_LIMIT_MB,
    });
  }
  return checks;
}

/** The two targets of a day's CSV through the gateway; a rise that could not be read is not met. */
export function checkStatementDownload(d: StatementDownloadResult): TargetCheck[] {
  const day = `a day of ${d.lines} lines as CSV through the gateway`;
  const rise =
    d.rssPeakMb !== undefined && d.rssBeforeMb !== undefined ? d.rssPeakMb - d.rssBeforeMb : undefined;
  return [
    {
      target: `${day} ≥ ${STATEMENT_DOWNLOAD_MIN_LINES_PER_SECOND} lines/s`,
      measured: d.failure
        ? `failed after ${fixed(d.seconds, 1)} s: ${d.failure}`
        : `${fixed(d.linesPerSecond, 0)} lines/s (${d.received} lines in ${fixed(d.seconds, 2)} s)`,
      met: d.received === d.lines && d.linesPerSecond >= STATEMENT_DOWNLOAD_MIN_LINES_PER_SECOND,
    },
    {
      target: `${day}: gateway RSS rise < ${STATEMENT_DOWNLOAD_RSS_RISE_LIMIT_MB} MB`,
      measured:
        rise === undefined
          ? "not readable"
          : `${fixed(rise, 1)} MB (${fixed(d.rssBeforeMb ?? 0, 0)} → ${fixed(d.rssPeakMb ?? 0, 0)} MB)`,
      met: rise !== undefined && rise < STATEMENT_DOWNLOAD_RSS_RISE_LIMIT_MB,
    },
  ];
}

/** A batch's fan-out: items accepted per second against single executePayout calls of the same run. */
export function checkBatch(b: BatchResult): TargetCheck {
  return {
    target: `batch of ${b.items}: items accepted/s ≥ ${pct(BATCH_RATE_TARGET)} of single executePayout/s`,
    measured: `${pct(b.ratio)} (${fixed(b.acceptedPerSecond, 0)} items/s vs ${fixed(b.singlePerSecond, 0)} payouts/s)`,
    met: b.ratio >= BATCH_RATE_TARGET,
  };
}

function pct(fraction: number): string {
  return `${fixed(fraction * 100, fraction < 0.1 ? 1 : 0)} %`;
}

function fixed(value: number, digits: number): string {
  return value.toFixed(digits);
}
