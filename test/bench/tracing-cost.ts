/**
 * What tracing costs per request, A/B in one run: the distributed topology is started once per variant
 * (alternating, `--rounds` times, because the machine is shared and noisy), seeded, warmed up, then
 * previewQuotations and lookupPaymentCode (the bench's requests) are driven while the CPU time of the six
 * platform processes is read from /proc.
 *
 *   node --import tsx test/bench/tracing-cost.ts [--rounds 2] [--duration 10] [--variants a,b] [--profile DIR]
 *
 * `--profile DIR` writes a V8 CPU profile of every process to DIR/<variant>-<round>/ (summarise with
 * test/bench/profile-summary.ts); profiling adds its own cost, so figures of such a run are not comparable.
 *
 * Requests go at a fixed rate (`--preview-rate`, `--lookup-rate`), below what the slowest variant
 * sustains, so every variant does the same work per event-loop turn whatever else the machine runs.
 *
 * Variants (all the same build; only the environment differs):
 * - `recording`: OTEL_TRACES_SAMPLER=parentbased_always_on, no exporter: every span recorded and dropped
 *   (what every process did before non-recording spans without an exporter);
 * - `default`: no exporter, no sampler: spans are non-recording;
 * - `disabled`: OTEL_SDK_DISABLED=true, no tracer provider (the floor);
 * - `collector`: OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP sink in this process that answers
 *   200 to everything (the cost of exporting whole traces).
 *
 * Needs TEST_DATABASE_URL and TEST_KAFKA_BROKERS (or BENCH_*), and a build (`npm run build`).
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { seedDistributed } from "./bench-seed.js";
import { startDistributed } from "./distributed-target.js";
import type { LoadRequest } from "./load-generator.js";
import { createDatabase } from "./local-infra.js";
import { PartnerWorkload, type Workload } from "./partner-workload.js";
import { readCpuSeconds } from "./process-stats.js";

const repoRoot = resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "2" },
    duration: { type: "string", default: "10" },
    variants: { type: "string", default: "recording,default,disabled" },
    "preview-rate": { type: "string", default: "200" },
    "lookup-rate": { type: "string", default: "100" },
    // Below the ephemeral range (32768+), where a client socket once took one of the ports first.
    port: { type: "string", default: "24080" },
    profile: { type: "string" },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const previewRate = Number(values["preview-rate"]);
const lookupRate = Number(values["lookup-rate"]);
const basePort = Number(values.port);
const variants = values.variants.split(",");
const postgres = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const kafka = process.env.BENCH_KAFKA_BROKERS ?? process.env.TEST_KAFKA_BROKERS;
if (!postgres || !kafka) throw new Error("set TEST_DATABASE_URL and TEST_KAFKA_BROKERS");

const sink = createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(200, { "content-type": "application/x-protobuf" }).end());
});
await new Promise<void>((done) => sink.listen(0, "127.0.0.1", done));
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

const ENV: Record<string, Record<string, string>> = {
  recording: { OTEL_TRACES_SAMPLER: "parentbased_always_on" },
  default: {},
  disabled: { OTEL_SDK_DISABLED: "true" },
  collector: { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_METRICS_EXPORTER: "none" },
};

interface Row {
  variant: string;
  round: number;
  scenario: string;
  rps: number;
  cpuMsPerRequest: number;
  byProcess: Record<string, number>;
}
const rows: Row[] = [];

for (let round = 1; round <= rounds; round++) {
  for (const variant of variants) {
    const env = ENV[variant];
    if (!env) throw new Error(`unknown variant ${variant}`);
    const runId = `${variant}_${randomBytes(3).toString("hex")}`;
    const database = await createDatabase(postgres, `tracecost_${runId}`);
    const topology = await startDistributed({
      repoRoot,
      basePort,
      databaseUrl: database.url,
      kafkaBrokers: kafka,
      build: false,
      env: {
        ...env,
        SANDBOX_AUTO_SETTLE_MS: "0",
        // The bench partner is funded by one admin token's credit: no second operator to approve it.
        FOUR_EYES_APPROVALS: "false",
        WEBHOOK_CONSUMER_GROUP: `tracecost-${runId}`,
        WEBHOOK_ALLOW_PRIVATE_URLS: "true",
        LOG_LEVEL: "info",
      },
      logDir: join("/tmp", `tracecost-logs-${runId}`),
      ...(values.profile ? { profileDir: resolve(values.profile, `${variant}-${round}`) } : {}),
    }).catch(async (error: unknown) => {
      await database.drop();
      throw error;
    });
    try {
      const tenant = await seedDistributed(topology);
      const workload = new PartnerWorkload(tenant, runId);
      for (const [scenario, w, rate] of [
        ["previewQuotations", workload.preview(), previewRate],
        ["lookupPaymentCode", workload.lookup(), lookupRate],
      ] as Array<[string, Workload, number]>) {
        const request = w.next();
        if (!request) throw new Error(`${scenario}: no request`);
        const drive = (seconds: number) => fixedRate(topology.partnerUrl, request, rate, seconds);
        await drive(3);
        const before = cpuOf(topology.pids);
        const load = await drive(duration);
        const after = cpuOf(topology.pids);
        const byProcess: Record<string, number> = {};
        let total = 0;
        for (const [name, seconds] of Object.entries(after)) {
          const used = seconds - (before[name] ?? 0);
          total += used;
          byProcess[name] = round2((1000 * used) / load.ok);
        }
        const row = {
          variant,
          round,
          scenario,
          rps: Math.round(load.ok / duration),
          cpuMsPerRequest: round2((1000 * total) / load.ok),
          byProcess,
        };
        rows.push(row);
        console.log(
          `${variant} round ${round} ${scenario}: ${row.rps} req/s, ${row.cpuMsPerRequest} CPU ms/req ` +
            `(${load.failed} failed) ${JSON.stringify(byProcess)}`,
        );
      }
    } finally {
      await topology.stop();
      await database.drop();
    }
  }
}
sink.close();

console.log("\n| scenario | variant | req/s (each round) | CPU ms/req, platform processes (each round) |");
console.log("|---|---|--:|--:|");
for (const scenario of ["previewQuotations", "lookupPaymentCode"]) {
  for (const variant of variants) {
    const mine = rows.filter((r) => r.scenario === scenario && r.variant === variant);
    console.log(
      `| ${scenario} | ${variant} | ${mine.map((r) => r.rps).join(" / ")} | ${mine.map((r) => r.cpuMsPerRequest).join(" / ")} |`,
    );
  }
}

/**
 * The same request at a fixed rate (not as fast as possible): how many requests share an event-loop turn
 * then does not depend on how busy the machine is, so CPU per request compares across variants.
 */
async function fixedRate(
  baseUrl: string,
  request: LoadRequest,
  rate: number,
  seconds: number,
): Promise<{ ok: number; failed: number }> {
  const result = await autocannon({
    url: baseUrl,
    connections: 20,
    overallRate: rate,
    duration: seconds,
    requests: [
      {
        method: request.method,
        path: request.path,
        headers: { ...request.headers },
        ...(request.body === undefined ? {} : { body: request.body }),
      },
    ],
  });
  return {
    ok: result.requests.total - result.non2xx,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

function cpuOf(pids: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) out[name] = readCpuSeconds(pid) ?? 0;
  return out;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
