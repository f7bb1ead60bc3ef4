import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type {
  BenchResults,
  HttpScenarioResult,
  NoisyNeighbourResult,
  WebhookPhaseResult,
} from "./bench-results.js";
import { describePostgresSettings } from "./pg-settings.js";
import type { PgbenchResult } from "./pgbench.js";
import type { ProcessUsage } from "./process-stats.js";

/** Writes `results.json` and `results.md` into `dir`; answers the Markdown. */
export function writeResults(dir: string, results: BenchResults): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  const markdown = renderMarkdown(results);
  writeFileSync(join(dir, "results.md"), markdown);
  return markdown;
}

/** The human-readable report: machine, HTTP table, webhook table, peak RSS, targets, problems. */
export function renderMarkdown(results: BenchResults): string {
  const lines: string[] = [];
  const m = results.machine;
  lines.push(
    `Run ${results.startedAt} (${results.quick ? "quick" : "full"}, ${Math.round(results.wallSeconds)} s wall).`,
    "",
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB RAM, ${m.os}; Node ${m.node}; ${m.postgres}; ${m.kafka}. ` +
      `Load average when the run started: ${m.loadAverageAtStart}.`,
    "",
    `PostgreSQL settings (read back from the server, pgbench and the platform alike): ${describePostgresSettings(results.postgresSettings)}.`,
    "",
    `Settings: ${Object.entries(results.settings)
      .map(([k, v]) => `${k}=${v}`)
      .join(", ")}.`,
    "",
    "### HTTP endpoints and baselines",
    "",
    "| scenario | mode | req/s | p50 ms | p99 ms | ok | intended errors | unintended errors | vs baseline | vs best floor | CPU ms/req | CPU % (busiest) | peak RSS MB |",
    "|---|---|--:|--:|--:|--:|--:|--:|---|--:|--:|---|---|",
  );
  for (const s of results.http) lines.push(httpRow(s));
  for (const p of results.pgbench) lines.push(pgbenchRow(p));
  const floors = results.http.filter((s) => s.mode === "floor");
  if (floors.length > 0) {
    lines.push(
      "",
      "### One-hop floor",
      "",
      'A fastify route making one grpc.health.v1 Check call to a bare connect-node server, each variant in its own two processes; partner endpoints above are compared with the best of these ("vs best floor").',
      "",
      "| transport | req/s | CPU ms/req | p99 ms | % of best floor |",
      "|---|--:|--:|--:|--:|",
    );
    for (const f of floors) lines.push(floorRow(f));
  }
  if (results.webhooks.length > 0) {
    lines.push(
      "",
      "### Webhook fan-out",
      "",
      "Each event fans out to every receiver (one webhook config each, on an origin of its own). _burst_: all events published at once, deliveries/s is the drain rate; _sustained_: a steady offered load; _noisy_ and _drain_: see below. deliveries/s counts from the first event published to the last delivery; the audit is per (event, receiver): missing (not arrived when the phase stopped waiting), duplicate (arrived again), late (an earlier phase's event that arrived during this one), unexpected (published by no phase), bad signature.",
      "",
      "| phase | events | offered events/s | offered deliveries/s | fan-out | deliveries | deliveries/s | p50 event→2xx ms | p99 event→2xx ms | max ms | missing | duplicates | late | unexpected | bad signatures | CPU ms/delivery | CPU % (busiest) |",
      "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|",
    );
    for (const w of results.webhooks) lines.push(webhookRow(w));
    for (const w of results.webhooks) if (w.windows && w.windows.length > 0) lines.push(...windowTable(w));
  }
  if (results.noisyNeighbour) lines.push(...noisyNeighbourLines(results.noisyNeighbour));
  if (results.statementRender && results.statementRender.length > 0) {
    lines.push(
      "",
      "### Statement rendering",
      "",
      "One day of generated lines streamed by the gateway's renderer through a node:http response (back-pressure: `Readable.from` + `pipeline`) to a client reading it all; lines/s over the request's wall time, RSS rise = the server's peak resident set during the response minus its resident set before it.",
      "",
      "| format | lines | MB | seconds | lines/s | server RSS rise MB |",
      "|---|--:|--:|--:|--:|--:|",
    );
    for (const r of results.statementRender) {
      lines.push(
        `| ${r.format} | ${r.lines} | ${(r.bytes / 1e6).toFixed(1)} | ${r.seconds.toFixed(2)} | ${Math.round(r.linesPerSecond)} | ${r.rssRiseMb?.toFixed(1) ?? "n/a"} |`,
      );
    }
  }
  const d = results.statementDownload;
  if (d) {
    const rise =
      d.rssPeakMb !== undefined && d.rssBeforeMb !== undefined ? d.rssPeakMb - d.rssBeforeMb : undefined;
    lines.push(
      "",
      "### Statement download through the gateway",
      "",
      "One partner's day seeded into the ledger's tables, then `GET /statements/daily/{date}?format=csv` on the distributed topology's partner listener, read to the end; lines/s over the request's wall time; the gateway process's RSS before the request and its peak during it.",
      "",
      "| lines seeded | lines received | MB | seconds | lines/s | gateway RSS before MB | peak MB | rise MB | seed seconds |",
      "|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
      `| ${d.lines} | ${d.received} | ${(d.bytes / 1e6).toFixed(1)} | ${d.seconds.toFixed(2)} | ${Math.round(d.linesPerSecond)} | ${d.rssBeforeMb?.toFixed(0) ?? "n/a"} | ${d.rssPeakMb?.toFixed(0) ?? "n/a"} | ${rise?.toFixed(1) ?? "n/a"} | ${d.seedSeconds.toFixed(1)} |`,
      ...(d.failure ? ["", `The download failed after ${d.seconds.toFixed(1)} s: ${d.failure}`] : []),
    );
  }
  const b = results.batch;
  if (b) {
    lines.push(
      "",
      "### Bulk payouts",
      "",
      `One batch created through the partner API, validated, approved; items/s from the approval until every item's payout was accepted (PROCESSING), against ${b.singlePayouts} single executePayout calls (${b.singleConcurrency} in flight) of the same partner in the same run. COMPLETED includes the bench settling every item through the sandbox admin route.`,
      "",
      "| items | validation s | accepted s | items/s | single payouts/s | ratio | COMPLETED s |",
      "|--:|--:|--:|--:|--:|--:|--:|",
      `| ${b.items} | ${b.validationSeconds.toFixed(1)} | ${b.acceptedSeconds.toFixed(2)} | ${b.acceptedPerSecond.toFixed(0)} | ${b.singlePerSecond.toFixed(0)} | ${(b.ratio * 100).toFixed(0)} % | ${b.completedSeconds.toFixed(1)} |`,
    );
  }
  lines.push("", "### Peak RSS per process (MB, whole run)", "", "| process | peak RSS MB |", "|---|--:|");
  for (const [name, mb] of Object.entries(results.peakRssMb)) lines.push(`| ${name} | ${mb.toFixed(0)} |`);
  if (results.targets.length > 0) {
    lines.push("", "### Targets", "", "| target | measured | met |", "|---|---|---|");
    for (const t of results.targets) lines.push(`| ${t.target} | ${t.measured} | ${t.met ? "yes" : "no"} |`);
  }
  lines.push("", "### Problems", "");
  if (results.problems.length === 0) lines.push("None: no unintended errors, no crashes.");
  for (const p of results.problems) lines.push(`- ${p}`);
  return `${lines.join("\n")}\n`;
}

function httpRow(s: HttpScenarioResult): string {
  const l = s.load;
  const vs = s.baseline ? `${(s.baseline.ratio * 100).toFixed(1)} % of ${s.baseline.name}` : "—";
  const exhausted = l.exhausted ? " (inputs ran out)" : "";
  return `| ${s.name}${exhausted} | ${s.mode} | ${l.requestsPerSecond.toFixed(0)} | ${num(l.latencyMs.p50)} | ${num(l.latencyMs.p99)} | ${l.ok} | ${l.intendedErrors} | ${l.unintendedErrors} | ${vs} | ${floorPercent(s)} | ${cpuPerRequest(s)} | ${busiest(s.processes)} | ${rss(s.processes)} |`;
}

function floorRow(s: HttpScenarioResult): string {
  return `| ${s.name} | ${s.load.requestsPerSecond.toFixed(0)} | ${cpuPerRequest(s)} | ${num(s.load.latencyMs.p99)} | ${floorPercent(s)} |`;
}

/** "48.2 %" of the run's best one-hop floor, or "—". */
export function floorPercent(s: HttpScenarioResult): string {
  return s.floor ? `${(s.floor.ratio * 100).toFixed(1)} %` : "—";
}

function pgbenchRow(p: PgbenchResult): string {
  return `| pgbench ${p.script} (${p.clients} clients) | baseline | ${p.tps.toFixed(0)} tps | ${num(p.latencyMs.p50)} | ${num(p.latencyMs.p99)} | ${p.transactions} | 0 | ${p.failed} | — | — | — | — | — |`;
}

function webhookRow(w: WebhookPhaseResult): string {
  const offered = w.offeredRate > 0 ? String(w.offeredRate) : "all at once";
  const offeredDeliveries = w.offeredDeliveriesPerSecond > 0 ? String(w.offeredDeliveriesPerSecond) : "—";
  return `| ${w.phase} | ${w.events} | ${offered} | ${offeredDeliveries} | ${w.fanOut} | ${w.deliveries} | ${w.deliveriesPerSecond.toFixed(0)} | ${num(w.eventToAckMs.p50)} | ${num(w.eventToAckMs.p99)} | ${num(w.eventToAckMs.max)} | ${w.missing} | ${w.duplicates} | ${w.late} | ${w.unexpected} | ${w.badSignatures} | ${w.cpuMsPerDelivery.toFixed(2)} | ${busiest(w.processes)} |`;
}

function windowTable(w: WebhookPhaseResult): string[] {
  const lines = [
    "",
    `#### ${w.phase}: event→2xx per window (by publish time)`,
    "",
    "| from second | deliveries | p50 ms | p99 ms |",
    "|--:|--:|--:|--:|",
  ];
  for (const x of w.windows ?? [])
    lines.push(`| ${x.fromSecond} | ${x.deliveries} | ${num(x.p50)} | ${num(x.p99)} |`);
  return lines;
}

function noisyNeighbourLines(n: NoisyNeighbourResult): string[] {
  const b = n.backlog;
  const d = n.drain;
  const rows = Object.entries(d.rowsByStatus)
    .map(([status, count]) => `${status} ${count}`)
    .join(", ");
  return [
    "",
    "### Noisy neighbour and recovery",
    "",
    `Partner A: ${b.configs} webhook configs, each a receiver on a port of its own; partner B: one config, a healthy receiver. ` +
      `A's backlog: ${b.events} signed events (${b.twoEventTransactions} transactions with two events) × ${b.configs} configs = ${b.deliveries} deliveries, ` +
      `published in ${b.publishSeconds.toFixed(1)} s; ${b.stored} delivery rows stored${b.storedSeconds > 0 ? ` ${b.storedSeconds.toFixed(1)} s after the first publish` : " when the wait ended (not all)"}. ` +
      `B's phases (rows "noisy: …" above): B alone before A's backlog existed, then beside it while A's receivers refused connections, then while they accepted and never answered.`,
    "",
    `Recovery (rows "drain: …"): A's receivers answered 2xx again on the same ports while B's load went on; ` +
      `${d.arrived} of ${d.expected} of A's deliveries arrived in ${d.seconds.toFixed(1)} s (${d.deliveriesPerSecond.toFixed(0)} deliveries/s; the wait ended: ${d.ended}). ` +
      `Per-transaction order: ${d.outOfOrder} of ${d.transactionsChecked} (transaction, receiver) pairs out of order. ` +
      `A's delivery rows when the wait ended: ${rows || "none"}. The drain rows' CPU per delivery is over A's and B's deliveries together.`,
  ];
}

/**
 * CPU milliseconds the system under test spent per request: every process but the load generator
 * and Kafka (PostgreSQL included). Less sensitive to other load on the machine than requests/s.
 */
export function cpuPerRequest(s: HttpScenarioResult): string {
  return cpuMsPerRequest(s)?.toFixed(2) ?? "—";
}

/** CPU milliseconds per request of every process but the load generator and Kafka (PostgreSQL included). */
export function cpuMsPerRequest(s: HttpScenarioResult): number | undefined {
  const seconds = s.processes
    .filter((p) => p.name !== "bench" && p.name !== "kafka")
    .reduce((sum, p) => sum + p.cpuSeconds, 0);
  return s.load.requests > 0 ? (1000 * seconds) / s.load.requests : undefined;
}

/** The three processes that used the most CPU, e.g. "gateway 98, ledger 45, postgres 40". */
export function busiest(processes: readonly ProcessUsage[]): string {
  const top = [...processes].sort((a, b) => b.cpuPercent - a.cpuPercent).slice(0, 3);
  return top.length === 0 ? "—" : top.map((p) => `${p.name} ${p.cpuPercent.toFixed(0)}`).join(", ");
}

/** Peak RSS of the platform's processes in the window (not the load generator or the databases). */
export function rss(processes: readonly ProcessUsage[]): string {
  const shown = processes.filter((p) => p.peakRssMb !== undefined && !EXCLUDED_FROM_RSS.has(p.name));
  return shown.length === 0 ? "—" : shown.map((p) => `${p.name} ${p.peakRssMb!.toFixed(0)}`).join(", ");
}

const EXCLUDED_FROM_RSS = new Set(["bench", "kafka", "postgres"]);

function num(value: number): string {
  return value >= 10 ? value.toFixed(0) : value.toFixed(1);
}
