import type {
  BenchResults,
  HttpScenarioResult,
  NoisyNeighbourResult,
  WebhookPhaseResult,
} from "./bench-results.js";
import type { LoadResult } from "./load-generator.js";

/** A load result with the given throughput and latencies; everything else zero. */
export function loadResult(
  requestsPerSecond: number,
  p99 = 10,
  fields: Partial<LoadResult> = {},
): LoadResult {
  return {
    requests: requestsPerSecond * 10,
    durationSeconds: 10,
    requestsPerSecond,
    latencyMs: { p50: p99 / 2, p90: p99 * 0.8, p99, max: p99 * 2 },
    statusCounts: { "200": requestsPerSecond * 10 },
    ok: requestsPerSecond * 10,
    intendedErrors: 0,
    unintendedErrors: 0,
    errorSamples: [],
    exhausted: false,
    ...fields,
  };
}

export function httpScenario(
  name: string,
  load: LoadResult,
  baseline?: HttpScenarioResult["baseline"],
  mode: HttpScenarioResult["mode"] = "distributed",
): HttpScenarioResult {
  return {
    name,
    mode,
    connections: 50,
    load,
    processes: [
      { name: "gateway", peakRssMb: 120.4, cpuPercent: 95.2, cpuSeconds: 9.52 },
      { name: "pricing", peakRssMb: 90, cpuPercent: 40, cpuSeconds: 4 },
      { name: "postgres", peakRssMb: undefined, cpuPercent: 12, cpuSeconds: 1.2 },
      { name: "bench", peakRssMb: 150, cpuPercent: 60, cpuSeconds: 6 },
    ],
    ...(baseline ? { baseline } : {}),
  };
}

/** A webhook phase; every phase but `burst` is paced at 200 events/s to 5 receivers. */
export function webhookPhase(phase: string, fields: Partial<WebhookPhaseResult> = {}): WebhookPhaseResult {
  const paced = phase !== "burst";
  return {
    phase,
    events: 1000,
    offeredRate: paced ? 200 : 0,
    offeredDeliveriesPerSecond: paced ? 1000 : 0,
    publishedSeconds: paced ? 5 : 0.2,
    fanOut: 5,
    expectedDeliveries: 5000,
    deliveries: 5000,
    duplicates: 0,
    missing: 0,
    late: 0,
    unexpected: 0,
    badSignatures: 0,
    deliveriesPerSecond: 1200,
    eventToAckMs: { p50: 40, p99: 300, max: 450 },
    cpuMsPerDelivery: 0.8,
    processes: [],
    ...fields,
  };
}

/** A noisy-neighbour result whose drain met every target. */
export function noisyNeighbour(drain: Partial<NoisyNeighbourResult["drain"]> = {}): NoisyNeighbourResult {
  return {
    backlog: {
      configs: 10,
      events: 20_000,
      twoEventTransactions: 3334,
      deliveries: 200_000,
      publishSeconds: 4.2,
      storedSeconds: 31.5,
      stored: 200_000,
    },
    drain: {
      expected: 200_000,
      arrived: 200_000,
      seconds: 125,
      deliveriesPerSecond: 1600,
      ended: "all arrived",
      transactionsChecked: 33_340,
      outOfOrder: 0,
      rowsByStatus: { delivered: 200_000 },
      ...drain,
    },
  };
}

export function benchResults(fields: Partial<BenchResults> = {}): BenchResults {
  return {
    startedAt: "2026-11-21T02:00:00.000Z",
    finishedAt: "2026-11-21T02:08:00.000Z",
    wallSeconds: 480,
    quick: false,
    machine: {
      cpus: 2,
      cpuModel: "AMD EPYC",
      memoryGb: 23.5,
      os: "Debian GNU/Linux 12 (bookworm)",
      node: "v20.20.2",
      postgres: "PostgreSQL 15.18",
      kafka: "Apache Kafka 3.9.1 (KRaft, single node)",
      loadAverageAtStart: 0.5,
    },
    postgresSettings: { fsync: "on", synchronous_commit: "on", full_page_writes: "on", wal_level: "replica" },
    settings: { connections: 50 },
    pgbench: [
      {
        script: "tpcb-like",
        clients: 10,
        durationSeconds: 15,
        transactions: 100000,
        failed: 0,
        tps: 6666.7,
        latencyMs: { p50: 1.2, p99: 3.7, average: 1.3 },
      },
    ],
    http: [],
    webhooks: [],
    peakRssMb: { gateway: 130.2 },
    peaksPerScenario: true,
    targets: [],
    problems: [],
    ...fields,
  };
}
