/** How long and how hard the fault-injection run goes, and which faults it injects in what order. */
import { DEFAULT_KAFKA_TIMING } from "@payouts/platform/events/kafka-client-config";

export class UsageError extends Error {}

export type KilledRole = "gateway" | "lookup" | "pricing" | "ledger" | "webhooks" | "sandbox-rail";

/** Every process of the distributed topology, each killed once in this order. */
export const KILLED_ROLES: readonly KilledRole[] = [
  "gateway",
  "lookup",
  "pricing",
  "ledger",
  "webhooks",
  "sandbox-rail",
];

export type Fault =
  | { readonly kind: "baseline" }
  | { readonly kind: "kill"; readonly role: KilledRole }
  | { readonly kind: "kafka-outage"; readonly seconds: number }
  | { readonly kind: "pg-restart"; readonly mode: "fast" | "immediate" }
  | { readonly kind: "receiver-failing"; readonly seconds: number }
  | { readonly kind: "replicas" }
  | { readonly kind: "batch-kill"; readonly items: number };

export interface ChaosOptions {
  readonly mode: "short" | "full";
  /** Concurrent partner workers, each running lookup → quote → execute in a loop. */
  readonly workers: number;
  /** Pause of a worker between two payouts. */
  readonly thinkMs: number;
  /** One payout in this many goes to a sandbox destination that fails at the rail. */
  readonly failEvery: number;
  /** One successful payout in this many is refunded by the operator. */
  readonly refundEvery: number;
  readonly baselineSeconds: number;
  /** Load for the phase's own partner before its fault strikes, so payouts of it are in flight. */
  readonly leadSeconds: number;
  /** How long a killed process stays down before it is started again. */
  readonly killDownSeconds: number;
  /**
   * How long the killed dispatcher stays down: as briefly as an orchestrator takes to start a replacement,
   * since its resumption is held to a limit from the kill (RESUMPTION_LIMITS).
   */
  readonly webhooksDownSeconds: number;
  /** Before the dispatcher is killed, the receiver answers 500 this long, so deliveries are left stored. */
  readonly storedBeforeKillSeconds: number;
  /** Load after each fault is over (a restarted process ready, the broker back, ...). */
  readonly recoverySeconds: number;
  readonly kafkaOutageSeconds: number;
  readonly receiverFailingSeconds: number;
  /** Load while two replicas of the gateway, the ledger and the dispatcher run. */
  readonly replicaSeconds: number;
  /**
   * Items of the bulk payout whose fan-out the ledger's kills interrupt; 0 leaves the phase out (the short
   * run: the phase takes about two and a half minutes on 2 cores).
   */
  readonly batchItems: number;
  /** The wait for every payout to settle and every webhook to arrive, after the load stopped. */
  readonly quiescenceSeconds: number;
  /** The whole run is stopped (and fails) after this long. */
  readonly runLimitSeconds: number;
  /** Leave PostgreSQL and Kafka running at the end, for a look (they are stopped otherwise). */
  readonly keepInfra: boolean;
}

/**
 * kafkajs retries of the platform's client by default (DEFAULT_KAFKA_TIMING, kafka-client-config.ts):
 * 10 retries from 100 ms, doubled each time (kafkajs's multiplier 2, jitter factor 0.2) up to 1 s.
 * Nominal: 7.5 s before a call gives up; with the worst jitter at every step about 8.1 s.
 */
export const KAFKA_RETRY = {
  retries: DEFAULT_KAFKA_TIMING.retry.retries,
  initialRetryTimeMs: DEFAULT_KAFKA_TIMING.retry.initialRetryTime,
  multiplier: 2,
  factor: 0.2,
  maxRetryTimeMs: DEFAULT_KAFKA_TIMING.retry.maxRetryTime,
};

/** Sum of the waits between a call's attempts: `nominal` without jitter, `worst` with +factor every step. */
export function kafkaRetryBudgetMs(jitter: "nominal" | "worst", retry = KAFKA_RETRY): number {
  const grow = jitter === "worst" ? 1 + retry.factor : 1;
  let wait = retry.initialRetryTimeMs * grow;
  let total = 0;
  for (let attempt = 0; attempt < retry.retries; attempt++) {
    total += wait;
    wait = Math.min(wait * grow * retry.multiplier, retry.maxRetryTimeMs);
  }
  return Math.round(total);
}

/**
 * How soon webhooks must flow again (ms): after kill -9 of the dispatcher, from the kill; after the Kafka
 * outage, from the broker answering again. `newEventsMs` for an event published after that moment,
 * `storedMs` for a delivery row stored before it.
 */
export const RESUMPTION_LIMITS = {
  webhooksKill: { newEventsMs: 10_000, storedMs: 5_000 },
  kafkaRestart: { newEventsMs: 5_000 },
} as const;

const FULL: ChaosOptions = {
  mode: "full",
  workers: 4,
  thinkMs: 100,
  failEvery: 7,
  refundEvery: 4,
  baselineSeconds: 30,
  leadSeconds: 5,
  killDownSeconds: 5,
  webhooksDownSeconds: 0.5,
  storedBeforeKillSeconds: 1,
  recoverySeconds: 10,
  // Past even the worst-case jitter of the retry budget.
  kafkaOutageSeconds: 100,
  receiverFailingSeconds: 30,
  replicaSeconds: 60,
  batchItems: 400,
  quiescenceSeconds: 180,
  runLimitSeconds: 1_200,
  keepInfra: false,
};

const SHORT: ChaosOptions = {
  ...FULL,
  mode: "short",
  workers: 3,
  baselineSeconds: 6,
  leadSeconds: 1.5,
  killDownSeconds: 2,
  recoverySeconds: 3,
  // Far past the retry budget: calls that began as the broker went away have given up, consumers restarted.
  kafkaOutageSeconds: 60,
  receiverFailingSeconds: 8,
  replicaSeconds: 10,
  batchItems: 0,
  quiescenceSeconds: 120,
  runLimitSeconds: 420,
};

export const USAGE = `usage: npm run chaos [-- --short] [--keep-infra]

  (default)     full run, several minutes (test/chaos/README.md)
  --short       the CI run (about 4 minutes on 2 cores): the same faults, shorter phases
  --keep-infra  leave the suite's own PostgreSQL and Kafka running at the end`;

export function parseChaosOptions(argv: readonly string[]): ChaosOptions {
  let options = FULL;
  for (const arg of argv) {
    if (arg === "--short") options = { ...SHORT, keepInfra: options.keepInfra };
    else if (arg === "--full") options = { ...FULL, keepInfra: options.keepInfra };
    else if (arg === "--keep-infra") options = { ...options, keepInfra: true };
    else throw new UsageError(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`);
  }
  return options;
}

/** The faults in the order they run; each is a phase of its own with a partner of its own. */
export function faultPlan(options: ChaosOptions): Fault[] {
  return [
    { kind: "baseline" },
    // First, while notifications flow steadily: after the faults below they resume only gradually.
    { kind: "receiver-failing", seconds: options.receiverFailingSeconds },
    ...KILLED_ROLES.map((role) => ({ kind: "kill", role }) as const),
    { kind: "kafka-outage", seconds: options.kafkaOutageSeconds },
    { kind: "pg-restart", mode: "fast" },
    { kind: "pg-restart", mode: "immediate" },
    { kind: "replicas" },
    // A bulk payout's fan-out through two kills of the ledger, which runs the batch worker (full run only).
    ...(options.batchItems > 0 ? [{ kind: "batch-kill", items: options.batchItems } as const] : []),
  ];
}

/** The fault's name in the audit table. */
export function faultName(fault: Fault): string {
  switch (fault.kind) {
    case "baseline":
      return "baseline (no fault)";
    case "kill":
      return `kill -9 ${fault.role}`;
    case "kafka-outage":
      return `kafka outage ${fault.seconds} s`;
    case "pg-restart":
      return `postgres restart -m ${fault.mode}`;
    case "receiver-failing":
      return `receiver 500s ${fault.seconds} s`;
    case "replicas":
      return "2 replicas gw+ledger+webhooks";
    case "batch-kill":
      return `batch of ${fault.items}, kill -9 ledger twice`;
  }
}
