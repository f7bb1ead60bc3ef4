/**
 * `npm run bench [-- --quick]`: the load suite. Baselines (node:http, pgbench) and the platform are
 * measured in one run on this machine with the same load generator and connections; see README.md here.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type EventMessage, TRANSACTION_EVENTS_TOPIC } from "@payouts/platform/events/event-bus";
import {
  createEventSigner,
  generateEventSigningKeys,
  parseSigningKey,
} from "@payouts/platform/events/event-signature";
import { createKafkaEventBus } from "@payouts/platform/events/kafka-event-bus";
import { createCleanupStack } from "../support/cleanup-stack.js";
import { BATCH_ITEMS, measureBatchPayouts } from "./batch-payouts.js";
import { type BenchOptions, parseBenchOptions, runLimitSeconds, runs, UsageError } from "./bench-options.js";
import {
  type BaselineName,
  type BatchResult,
  type BenchResults,
  type HttpScenarioResult,
  NOISY_PHASES,
  type NoisyNeighbourResult,
  type StatementDownloadResult,
  type StatementRenderResult,
  type WebhookPhaseResult,
} from "./bench-results.js";
import { type BenchTenant, seedDistributed, seedEmbedded } from "./bench-seed.js";
import { startChild } from "./child-process.js";
import { type DistributedTarget, startDistributed } from "./distributed-target.js";
import { startEmbedded } from "./embedded-target.js";
import { type HttpRunSettings, runHttpScenario } from "./http-scenario.js";
import { moveGroupToEnd } from "./kafka-offsets.js";
import {
  buildIsStale,
  createDatabase,
  describePostgres,
  ensureKafka,
  ensurePostgres,
  findKafkaPid,
} from "./local-infra.js";
import { describeMachine } from "./machine-info.js";
import { FLOOR_VARIANTS, type FloorVariant, withBestFloor } from "./one-hop-floor.js";
import { PartnerWorkload } from "./partner-workload.js";
import { describePostgresSettings } from "./pg-settings.js";
import { locatePgbench, type PgbenchResult, runPgbenchBaselines } from "./pgbench.js";
import { partnerClient } from "./platform-api.js";
import { ProcessMonitor } from "./process-stats.js";
import { writeResults } from "./results-report.js";
import { measureStatementDownload, STATEMENT_DOWNLOAD_LINES } from "./statement-download.js";
import {
  measureStatementRender,
  STATEMENT_RENDER_FORMATS,
  STATEMENT_RENDER_LINES,
} from "./statement-render.js";
import { checkTargets, EMBEDDED_PROCESS } from "./target-checks.js";
import { runBurst, runPaced, TimingReceiver } from "./webhook-fanout.js";
import { runNoisyNeighbour } from "./webhook-scenarios.js";

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(benchDir, "..", "..");
const outDir = join(benchDir, "out");
const logDir = join(outDir, "logs");
/**
 * Base port of the benchmark's topology: away from start-distributed.sh's default 28080, and below the
 * kernel's ephemeral range (32768–60999 on Linux), where outgoing sockets could already hold a port.
 */
const BASE_PORT = Number(process.env.BENCH_BASE_PORT ?? 24080);

const startedAt = new Date();
const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

/** Cleanups run in reverse order, once, on success, failure, signal or the time limit. */
const { cleanups, cleanUp } = createCleanupStack(log);

async function main(): Promise<number> {
  const options = parseBenchOptions(process.argv.slice(2));
  const limit = runLimitSeconds(options);
  setTimeout(() => {
    log(`time limit of ${limit} s reached: stopping`);
    void cleanUp().then(() => process.exit(1));
  }, limit * 1000).unref();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void cleanUp().then(() => process.exit(130));
    });
  }
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const runId = randomBytes(4).toString("hex");
  const problems: string[] = [];
  const monitor = new ProcessMonitor();
  monitor.watch({ name: "bench", pid: process.pid });
  const http: HttpScenarioResult[] = [];
  const settings: HttpRunSettings = {
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
    monitor,
    problems,
    log,
  };

  log(`${options.quick ? "quick" : "full"} run ${runId}: PostgreSQL and Kafka`);
  // Full runs measure durable PostgreSQL (pgbench and the platform alike); --quick keeps whatever runs.
  const postgres = await ensurePostgres(repoRoot, { durable: !options.quick, log });
  log(`PostgreSQL ${postgres.url}: ${describePostgresSettings(postgres.settings)}`);
  cleanups.push({ name: "PostgreSQL", run: () => postgres.stop() });
  const kafka = await ensureKafka(repoRoot);
  cleanups.push({ name: "Kafka", run: () => kafka.stop() });
  const pgInfo = await describePostgres(postgres.url);
  const kafkaPid = findKafkaPid(Number(kafka.url.split(",")[0]?.split(":")[1]));
  if (kafkaPid) monitor.watch({ name: "kafka", pid: kafkaPid });
  const machine = describeMachine(pgInfo.version);

  const httpBaseline = runs(options, "baselines")
    ? await measureHttpBaseline(options, settings, monitor)
    : undefined;
  if (httpBaseline) http.push(httpBaseline);
  if (runs(options, "floors")) {
    for (const variant of FLOOR_VARIANTS) http.push(await measureFloor(variant, settings, monitor));
  }
  let statementRender: StatementRenderResult[] | undefined;
  if (runs(options, "statements")) {
    log("statement rendering");
    statementRender = await measureStatementRender(
      options.quick ? STATEMENT_RENDER_LINES.quick : STATEMENT_RENDER_LINES.full,
      STATEMENT_RENDER_FORMATS,
      join(logDir, "statement-render.log"),
    );
  }
  const pgbench = runs(options, "baselines") ? await measurePgbench(options, postgres.url) : [];

  const distributed = DISTRIBUTED_PARTS.some((part) => runs(options, part))
    ? await measureDistributed(options, settings, {
        runId,
        postgres: postgres.url,
        kafka: kafka.url,
        ...(pgInfo.postmasterPid ? { postmasterPid: pgInfo.postmasterPid } : {}),
      })
    : { http: [], webhooks: [] };
  http.push(...distributed.http);
  const statementDownload: StatementDownloadResult | undefined = distributed.statementDownload;
  const noisyNeighbour: NoisyNeighbourResult | undefined = distributed.noisyNeighbour;
  const batch: BatchResult | undefined = distributed.batch;
  if (!options.skipEmbedded && runs(options, "embedded")) {
    http.push(...(await measureEmbedded(settings, monitor, runId)));
  }

  const compared = withBestFloor(http.map((s) => withBaseline(s, httpBaseline, pgbench)));
  const peakRssMb = monitor.highestPeaks();
  const results: BenchResults = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    wallSeconds: (performance.now() - t0) / 1000,
    quick: options.quick,
    machine,
    postgresSettings: postgres.settings,
    settings: {
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      pgbenchClients: options.pgbench.clients,
      pgbenchScale: options.pgbench.scale,
      webhookFanOut: options.webhooks.fanOut,
      webhookSustainedSeconds: options.webhooks.pacedSeconds,
      noisyNeighbourBacklog: `${options.webhooks.noisy.aEvents} events × ${options.webhooks.noisy.aConfigs} configs`,
      profiled: options.profile,
      logLevel: process.env.LOG_LEVEL ?? "info",
    },
    pgbench,
    http: compared,
    webhooks: distributed.webhooks,
    ...(noisyNeighbour ? { noisyNeighbour } : {}),
    ...(statementRender ? { statementRender } : {}),
    ...(statementDownload ? { statementDownload } : {}),
    ...(batch ? { batch } : {}),
    peakRssMb,
    peaksPerScenario: monitor.peaksPerWindow,
    targets: checkTargets(
      compared,
      distributed.webhooks,
      peakRssMb,
      noisyNeighbour,
      statementDownload,
      batch,
    ),
    problems,
  };
  const markdown = writeResults(outDir, results);
  if (!options.quick && !options.profile && !options.only) writeResultsFile(markdown);
  process.stdout.write(`\n${markdown}`);
  log(`results in ${join(outDir, "results.json")} and results.md`);
  return problems.length === 0 ? 0 : 1;
}

/** The node:http JSON server in its own process, driven like previewQuotations. */
async function measureHttpBaseline(
  options: BenchOptions,
  settings: HttpRunSettings,
  monitor: ProcessMonitor,
): Promise<HttpScenarioResult> {
  log("node:http baseline");
  const child = await startChild({
    name: "node:http",
    command: process.execPath,
    args: ["--import", "tsx", join(benchDir, "http-baseline-server.ts")],
    env: { ...process.env, NODE_OPTIONS: "" },
    cwd: repoRoot,
    logFile: join(logDir, "http-baseline.log"),
    ready: /^PORT=\d+/,
    timeoutMs: 30_000,
  });
  cleanups.push({ name: "node:http baseline", run: () => child.stop() });
  monitor.watch({ name: "node:http", pid: child.pid });
  const workload = new PartnerWorkload(
    { partnerId: "none", customerId: "none", clientId: "baseline", clientSecret: "baseline-secret" },
    "baseline",
  );
  const port = child.readyLine.split("=")[1];
  const result = await runHttpScenario(
    {
      name: "node:http JSON server",
      mode: "baseline",
      baseUrl: `http://127.0.0.1:${port}`,
      workload: workload.preview(),
    },
    { ...settings, warmupSeconds: options.warmupSeconds },
  );
  monitor.unwatch("node:http");
  await child.stop();
  return result;
}

/**
 * One one-hop floor variant: the bare RPC server and the fastify front in processes of their own,
 * driven like previewQuotations (same body, headers, connections, duration).
 */
async function measureFloor(
  variant: FloorVariant,
  settings: HttpRunSettings,
  monitor: ProcessMonitor,
): Promise<HttpScenarioResult> {
  log(variant.name);
  const start = (name: string, args: string[]) =>
    startChild({
      name,
      command: process.execPath,
      args: ["--conditions=source", "--import", "tsx", join(benchDir, "one-hop-floor-server.ts"), ...args],
      env: { ...process.env, NODE_OPTIONS: "" },
      cwd: repoRoot,
      logFile: join(logDir, `floor-${variant.client}-${name}.log`),
      ready: /^PORT=\d+/,
      timeoutMs: 30_000,
    });
  const rpc = await start("rpc", ["rpc", variant.server]);
  cleanups.push({ name: `${variant.name} rpc`, run: () => rpc.stop() });
  const front = await start("front", ["front", variant.client, rpc.readyLine.split("=")[1]!]);
  cleanups.push({ name: `${variant.name} front`, run: () => front.stop() });
  monitor.watch({ name: "floor rpc", pid: rpc.pid });
  monitor.watch({ name: "floor front", pid: front.pid });
  const workload = new PartnerWorkload(
    { partnerId: "none", customerId: "none", clientId: "baseline", clientSecret: "baseline-secret" },
    "floor",
  );
  const result = await runHttpScenario(
    {
      name: variant.name,
      mode: "floor",
      baseUrl: `http://127.0.0.1:${front.readyLine.split("=")[1]}`,
      workload: workload.preview(),
    },
    settings,
  );
  monitor.unwatch("floor rpc");
  monitor.unwatch("floor front");
  await front.stop();
  await rpc.stop();
  return result;
}

async function measurePgbench(options: BenchOptions, serverUrl: string): Promise<PgbenchResult[]> {
  log("pgbench baselines");
  const results = await runPgbenchBaselines({ binary: locatePgbench(repoRoot), serverUrl }, options.pgbench);
  for (const p of results) log(`pgbench ${p.script}: ${p.tps.toFixed(0)} tps, p99 ${p.latencyMs.p99} ms`);
  return results;
}

const DISTRIBUTED_PARTS = [
  "previewQuotations",
  "lookupPaymentCode",
  "getQuotation",
  "executePayout",
  "listTransactions",
  "webhooks",
  "statements",
  "batch",
] as const;

async function measureDistributed(
  options: BenchOptions,
  settings: HttpRunSettings,
  infra: { runId: string; postgres: string; kafka: string; postmasterPid?: number },
): Promise<{
  http: HttpScenarioResult[];
  webhooks: WebhookPhaseResult[];
  noisyNeighbour?: NoisyNeighbourResult;
  statementDownload?: StatementDownloadResult;
  batch?: BatchResult;
}> {
  const { monitor, problems } = settings;
  const databaseName = `bench_${infra.runId}`;
  const database = await createDatabase(infra.postgres, databaseName);
  // BENCH_KEEP_DATABASE=1 keeps it for a look afterwards (its name is in the log).
  if (process.env.BENCH_KEEP_DATABASE !== "1") {
    cleanups.push({ name: "benchmark database", run: () => database.drop() });
  }
  log(`database ${databaseName}`);
  if (infra.postmasterPid) {
    // The backends serving this run's database (process title "postgres: user db host(port) state").
    monitor.watch({ name: "postgres", pid: infra.postmasterPid, children: true, match: ` ${databaseName} ` });
  }
  const brokers = infra.kafka.split(",");
  // A group of this run only: a member left behind by an earlier, killed run cannot hold partitions.
  const webhookGroup = `payouts-bench-${infra.runId}`;
  await moveGroupToEnd(brokers, TRANSACTION_EVENTS_TOPIC, webhookGroup);
  const build = !options.skipBuild && buildIsStale(repoRoot);
  // The bench publishes the webhook phase's events itself, signed as the ledger signs its own.
  const eventKeys = generateEventSigningKeys();
  log(`distributed topology on ports ${BASE_PORT}-${BASE_PORT + 6}${build ? " (building first)" : ""}`);
  const topology = await startDistributed({
    repoRoot,
    basePort: BASE_PORT,
    databaseUrl: database.url,
    kafkaBrokers: infra.kafka,
    build,
    env: {
      // Payouts stay PROCESSING: settlement callbacks would add load to whatever is measured next.
      SANDBOX_AUTO_SETTLE_MS: "0",
      // The bench's own funding (bench-seed.ts) is one operator's credit: no second operator to approve it.
      FOUR_EYES_APPROVALS: "false",
      WEBHOOK_CONSUMER_GROUP: webhookGroup,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
      EVENT_SIGNING_KEY: eventKeys.signingKey,
      EVENT_VERIFY_KEYS: eventKeys.verifyKey,
    },
    logDir: join(logDir, "distributed"),
    ...(options.profile ? { profileDir: join(outDir, "profiles") } : {}),
  });
  cleanups.push({ name: "distributed topology", run: () => topology.stop() });
  for (const [name, pid] of Object.entries(topology.pids)) monitor.watch({ name, pid });
  const tenant = await seedDistributed(topology);
  const workload = new PartnerWorkload(tenant, infra.runId);
  const scenario = (name: string, w: ReturnType<PartnerWorkload["preview"]>) =>
    runHttpScenario({ name, mode: "distributed", baseUrl: topology.partnerUrl, workload: w }, settings);
  const http: HttpScenarioResult[] = [];
  const flow = [
    ["previewQuotations", () => workload.preview()],
    ["lookupPaymentCode", () => workload.lookup()],
    ["getQuotation", () => workload.quote()],
    ["executePayout", () => workload.execute()],
    ["listTransactions", () => workload.list()],
  ] as const;
  for (const [name, make] of flow) if (runs(options, name)) http.push(await scenario(name, make()));
  checkAlive(topology.pids, problems);
  const batch = runs(options, "batch")
    ? await measureBatch(options, topology, tenant, infra.runId, problems)
    : undefined;
  const webhooks = runs(options, "webhooks")
    ? await measureWebhooks(options, topology, tenant, settings, {
        ...infra,
        databaseUrl: database.url,
        signingKey: eventKeys.signingKey,
      })
    : { phases: [] };
  // Last, so the day's 100,000 rows weigh on no other part's measurement.
  const statementDownload = runs(options, "statements")
    ? await measureDownload(options, topology, database.url, problems)
    : undefined;
  for (const name of [...Object.keys(topology.pids), "postgres"]) monitor.unwatch(name);
  log("stopping the distributed topology");
  await topology.stop();
  return {
    http,
    webhooks: webhooks.phases,
    ...(webhooks.noisyNeighbour ? { noisyNeighbour: webhooks.noisyNeighbour } : {}),
    ...(statementDownload ? { statementDownload } : {}),
    ...(batch ? { batch } : {}),
  };
}

/** A batch's fan-out against single payouts of the same partner (batch-payouts.ts); an error is a problem. */
async function measureBatch(
  options: BenchOptions,
  topology: DistributedTarget,
  tenant: BenchTenant,
  runId: string,
  problems: string[],
): Promise<BatchResult | undefined> {
  const items = options.quick ? BATCH_ITEMS.quick : BATCH_ITEMS.full;
  try {
    return await measureBatchPayouts(
      { platform: topology, tenant, runId, concurrency: options.connections, log },
      items,
    );
  } catch (error) {
    problems.push(`batch: ${(error as Error).message}`);
    return undefined;
  } finally {
    checkAlive(topology.pids, problems);
  }
}

/** A seeded day downloaded as CSV through the gateway (statement-download.ts). */
async function measureDownload(
  options: BenchOptions,
  topology: DistributedTarget,
  databaseUrl: string,
  problems: string[],
): Promise<StatementDownloadResult> {
  const lines = options.quick ? STATEMENT_DOWNLOAD_LINES.quick : STATEMENT_DOWNLOAD_LINES.full;
  log(`statement download: seeding a day of ${lines} lines`);
  const gatewayPid = topology.pids.gateway;
  if (gatewayPid === undefined) throw new Error("the distributed topology has no gateway process");
  const result = await measureStatementDownload({ platform: topology, databaseUrl, gatewayPid, log }, lines);
  const rise =
    result.rssPeakMb !== undefined && result.rssBeforeMb !== undefined
      ? `${(result.rssPeakMb - result.rssBeforeMb).toFixed(1)} MB`
      : "not readable";
  log(
    `statement download: ${result.received} lines, ${(result.bytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(2)} s = ` +
      `${Math.round(result.linesPerSecond)} lines/s, gateway RSS rise ${rise}`,
  );
  if (result.failure) {
    problems.push(`statement download: ${result.failure} after ${result.seconds.toFixed(1)} s`);
  } else if (result.received !== lines) {
    problems.push(`statement download: ${result.received} line records received for a day of ${lines}`);
  }
  checkAlive(topology.pids, problems);
  return result;
}

async function measureWebhooks(
  options: BenchOptions,
  topology: DistributedTarget,
  tenant: BenchTenant,
  settings: HttpRunSettings,
  infra: { runId: string; kafka: string; signingKey: string; databaseUrl: string },
): Promise<{ phases: WebhookPhaseResult[]; noisyNeighbour?: NoisyNeighbourResult }> {
  const { monitor, problems } = settings;
  log("webhook fan-out");
  // One receiver per config, each on an origin of its own, as partners' endpoints are.
  const receivers = Array.from(
    { length: options.webhooks.fanOut },
    (_, i) => new TimingReceiver(`bench-webhook-secret-${i}-0123456789`),
  );
  const partner = partnerClient(topology, tenant);
  for (const [i, receiver] of receivers.entries()) {
    const origin = await receiver.start();
    cleanups.push({ name: `webhook receiver ${i}`, run: () => receiver.stop() });
    await partner.createWebhookConfig({
      url: `${origin}/receiver-${i}`,
      events: ["transaction.success"],
      secret: receiver.secret,
    });
  }
  const bus = createKafkaEventBus({ brokers: infra.kafka.split(","), clientId: "payouts-bench" });
  cleanups.push({ name: "Kafka producer", run: () => bus.close() });
  const signer = createEventSigner(parseSigningKey(infra.signingKey));
  const target = {
    bus: { ...bus, publish: (messages: readonly EventMessage[]) => bus.publish(messages.map(signer.sign)) },
    partnerId: tenant.partnerId,
    receivers,
    monitor,
    drainTimeoutMs: options.quick ? 30_000 : 60_000,
    runId: infra.runId,
    sent: new Set<string>(),
  };
  // Warm-up (connections, JIT, the consumer's first fetch): not reported.
  await runBurst({ ...target, runId: `${infra.runId}w` }, 50);
  const timelineFile = join(outDir, "webhook-timeline");
  const timed = { ...target, timelineFile };
  const w = options.webhooks;
  const webhooks: WebhookPhaseResult[] = [];
  if (w.phases === "all") {
    log(`webhook burst: ${w.burstEvents} events × ${w.fanOut} receivers at once`);
    webhooks.push(await runBurst({ ...timed, runId: `${infra.runId}b` }, w.burstEvents));
    log(`webhook sustained: ${w.pacedRate * w.fanOut} deliveries/s for ${w.pacedSeconds} s`);
    webhooks.push(
      await runPaced({ ...timed, runId: `${infra.runId}s` }, w.pacedRate, w.pacedSeconds, {
        phase: "sustained",
        windowSeconds: w.windowSeconds,
      }),
    );
  }
  const noisy = await runNoisyNeighbour(
    {
      bus: target.bus,
      monitor,
      platform: topology,
      databaseUrl: infra.databaseUrl,
      runId: infra.runId,
      drainTimeoutMs: target.drainTimeoutMs,
      timelineFile,
      log,
      onCleanup: (name, run) => cleanups.push({ name, run }),
    },
    w.noisy,
  );
  webhooks.push(...noisy.phases);
  const d = noisy.result.drain;
  log(
    `recovery: ${d.arrived}/${d.expected} of A's deliveries in ${d.seconds.toFixed(1)} s (${d.deliveriesPerSecond.toFixed(0)}/s, ${d.ended}), ` +
      `${d.outOfOrder} of ${d.transactionsChecked} transactions out of order`,
  );
  for (const w of webhooks) {
    log(
      `webhooks ${w.phase}: ${w.deliveries}/${w.expectedDeliveries} deliveries, ${w.deliveriesPerSecond.toFixed(0)}/s ` +
        `(offered ${w.offeredDeliveriesPerSecond || "at once"}), p50 ${w.eventToAckMs.p50} ms, p99 ${w.eventToAckMs.p99} ms, ` +
        `${w.missing} missing, ${w.duplicates} duplicates, ${w.late} late, ${w.unexpected} unexpected, ${w.badSignatures} bad signatures`,
    );
    // Deliveries still on their way when the drain window closed are a matter of speed (reported in the
    // table); none at all means the pipeline is broken.
    // A's drain may rightly see nothing yet (every attempt scheduled later): its targets report that.
    if (w.deliveries === 0 && w.phase !== NOISY_PHASES.drainA)
      problems.push(`webhooks ${w.phase}: no delivery arrived at the receiver`);
    if (w.badSignatures > 0)
      problems.push(`webhooks ${w.phase}: ${w.badSignatures} deliveries with a bad signature`);
  }
  checkAlive(topology.pids, problems);
  await bus.close();
  for (const receiver of receivers) await receiver.stop();
  return { phases: webhooks, noisyNeighbour: noisy.result };
}

async function measureEmbedded(
  settings: HttpRunSettings,
  monitor: ProcessMonitor,
  runId: string,
): Promise<HttpScenarioResult[]> {
  log("embedded mode (npm start: PGlite, in-process bus)");
  const embedded = await startEmbedded(repoRoot, join(logDir, "embedded.log"));
  cleanups.push({ name: "embedded runtime", run: () => embedded.stop() });
  monitor.watch({ name: EMBEDDED_PROCESS, pid: embedded.pid });
  const tenant = await seedEmbedded(embedded, embedded.sandbox);
  const workload = new PartnerWorkload(tenant, `${runId}e`);
  const scenario = (name: string, w: ReturnType<PartnerWorkload["preview"]>) =>
    runHttpScenario({ name, mode: "embedded", baseUrl: embedded.partnerUrl, workload: w }, settings);
  const http = [
    await scenario("previewQuotations", workload.preview()),
    await scenario("lookupPaymentCode", workload.lookup()),
  ];
  checkAlive({ [EMBEDDED_PROCESS]: embedded.pid }, settings.problems);
  monitor.unwatch(EMBEDDED_PROCESS);
  await embedded.stop();
  return http;
}

const BASELINE_OF: Readonly<Record<string, BaselineName>> = {
  previewQuotations: "node:http",
  listTransactions: "node:http",
  lookupPaymentCode: "pgbench single-insert",
  getQuotation: "pgbench tpcb-like",
  executePayout: "pgbench tpcb-like",
};

/** Which ceiling each endpoint is compared with, and its requests/s as a fraction of it. */
function withBaseline(
  s: HttpScenarioResult,
  httpBaseline: HttpScenarioResult | undefined,
  pgbench: readonly PgbenchResult[],
): HttpScenarioResult {
  const name = BASELINE_OF[s.name];
  if (!name) return s;
  const ceiling =
    name === "node:http"
      ? httpBaseline?.load.requestsPerSecond
      : pgbench.find((p) => `pgbench ${p.script}` === name)?.tps;
  return ceiling ? { ...s, baseline: { name, ratio: s.load.requestsPerSecond / ceiling } } : s;
}

function checkAlive(pids: Readonly<Record<string, number>>, problems: string[]): void {
  for (const [name, pid] of Object.entries(pids)) {
    try {
      process.kill(pid, 0);
    } catch {
      problems.push(
        `${name} (pid ${pid}) is no longer running: it crashed during the run (see test/bench/out/logs)`,
      );
    }
  }
}

function writeResultsFile(markdown: string): void {
  const header = [
    "# Benchmark results",
    "",
    "Written by the latest full `npm run bench` (see [README.md](README.md) for what is measured and how).",
    "Every figure comes from one run on one machine: the platform, PostgreSQL, Kafka and the load generator",
    "share its cores, and the baselines were measured in the same run. For each target the table at the end",
    "marks as missed, [the performance log](../../docs/performance-log.md) names the obstacle measured in the",
    "profiles and what removing it would take.",
    "",
    "",
  ];
  const file = join(benchDir, "RESULTS.md");
  writeFileSync(file, `${header.join("\n")}${markdown}`);
  // The repository's formatter lays out Markdown tables; `npm run lint` checks this file too.
  try {
    execFileSync(join(repoRoot, "node_modules", ".bin", "biome"), ["format", "--write", file], {
      stdio: "ignore",
    });
  } catch {
    log("could not format RESULTS.md with biome: run `npx biome format --write test/bench/RESULTS.md`");
  }
}

main()
  .then(async (code) => {
    await cleanUp();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    log(`failed: ${(error as Error).stack ?? String(error)}`);
    await cleanUp();
    process.exit(1);
  });
