import type { HttpScenarioResult, TargetCheck, WebhookPhaseResult } from "./bench-results.js";

/** Names of the platform's processes in the distributed topology (peak RSS target 200 MB each). */
export const SERVICE_PROCESSES = [
  "gateway",
  "lookup",
  "pricing",
  "ledger",
  "webhook-dispatcher",
  "sandbox-rail",
] as const;
export const EMBEDDED_PROCESS = "embedded";

const SERVICE_RSS_LIMIT_MB = 200;
const EMBEDDED_RSS_LIMIT_MB = 400;

/** The stretch targets, checked against what was measured (never fails the run). */
export function checkTargets(
  http: readonly HttpScenarioResult[],
  webhooks: readonly WebhookPhaseResult[],
  peakRssMb: Readonly<Record<string, number>>,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const scenario = (name: string) => http.find((s) => s.name === name && s.mode === "distributed");
  const ratio = (name: string, minimum: number, label: string) => {
    const s = scenario(name);
    if (!s?.baseline) return;
    checks.push({
      target: `${name} ≥ ${pct(minimum)} of ${s.baseline.name}${label}`,
      measured: `${pct(s.baseline.ratio)} (${fixed(s.load.requestsPerSecond, 0)} req/s)`,
      met: s.baseline.ratio >= minimum,
    });
  };

  ratio("previewQuotations", 0.35, " req/s");
  const preview = scenario("previewQuotations");
  if (preview?.floor) {
    checks.push({
      target: "previewQuotations ≥ 60 % of the best one-hop floor",
      measured: `${pct(preview.floor.ratio)} of ${preview.floor.name}`,
      met: preview.floor.ratio >= 0.6,
    });
  }
  if (preview) {
    checks.push({
      target: `previewQuotations p99 ≤ 50 ms at ${preview.connections} connections`,
      measured: `${fixed(preview.load.latencyMs.p99, 0)} ms`,
      met: preview.load.latencyMs.p99 <= 50,
    });
  }
  ratio("lookupPaymentCode", 0.5, " tps");
  ratio("executePayout", 0.4, " tps");
  const execute = scenario("executePayout");
  if (execute) {
    checks.push({
      target: "executePayout: no errors other than the intended ones",
      measured: `${execute.load.unintendedErrors} unintended, ${execute.load.intendedErrors} intended`,
      met: execute.load.unintendedErrors === 0,
    });
  }
  const burst = webhooks.find((w) => w.phase === "burst");
  if (burst) {
    checks.push({
      target: `webhook burst of ${burst.expectedDeliveries} deliveries drains at ≥ 1,500 deliveries/s`,
      measured: `${fixed(burst.deliveriesPerSecond, 0)} deliveries/s`,
      met: burst.deliveriesPerSecond >= 1500 && burst.missing === 0,
    });
  }
  const paced = webhooks.find((w) => w.phase === "paced");
  if (paced) {
    checks.push({
      target: `webhook p99 event-to-2xx ≤ 500 ms at ${paced.offeredDeliveriesPerSecond} deliveries/s offered for ${fixed(paced.publishedSeconds, 0)} s`,
      measured: `${fixed(paced.eventToAckMs.p99, 0)} ms (${fixed(paced.deliveriesPerSecond, 0)} deliveries/s)`,
      met: paced.eventToAckMs.p99 <= 500 && paced.missing === 0,
    });
  }
  if (webhooks.length > 0) {
    const total = (field: "missing" | "duplicates" | "unexpected" | "badSignatures") =>
      webhooks.reduce((sum, w) => sum + w[field], 0);
    checks.push({
      target: "webhooks: nothing lost or duplicated (per event and receiver), every signature valid",
      measured: `${total("missing")} missing, ${total("duplicates")} duplicates, ${total("unexpected")} unexpected, ${total("badSignatures")} bad signatures`,
      met: ["missing", "duplicates", "unexpected", "badSignatures"].every((f) => total(f as "missing") === 0),
    });
  }
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

function pct(fraction: number): string {
  return `${fixed(fraction * 100, fraction < 0.1 ? 1 : 0)} %`;
}

function fixed(value: number, digits: number): string {
  return value.toFixed(digits);
}
