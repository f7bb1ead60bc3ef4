import type { LatencyWindow } from "./latency-windows.js";
import type { LoadResult } from "./load-generator.js";
import type { MachineInfo } from "./machine-info.js";
import type { PostgresSettings } from "./pg-settings.js";
import type { PgbenchResult } from "./pgbench.js";
import type { ProcessUsage } from "./process-stats.js";

export type BaselineName = "node:http" | "pgbench tpcb-like" | "pgbench single-insert";

/** One HTTP load run: an endpoint of the platform, the node:http baseline or a one-hop floor. */
export interface HttpScenarioResult {
  readonly name: string;
  readonly mode: "distributed" | "embedded" | "baseline" | "floor";
  readonly connections: number;
  readonly load: LoadResult;
  readonly processes: readonly ProcessUsage[];
  /** Which baseline this is compared with, and requests/s as a fraction of it. */
  readonly baseline?: { readonly name: BaselineName; readonly ratio: number };
  /** The best one-hop floor of the run, and requests/s as a fraction of it (floors and distributed runs). */
  readonly floor?: { readonly name: string; readonly ratio: number };
}

export interface WebhookPhaseResult {
  /**
   * `burst`: a backlog queued at once (drain rate); `sustained`: a steady offered load (latency); the
   * noisy-neighbour scenario's phases are named after what partner A's receiver does meanwhile.
   */
  readonly phase: string;
  readonly events: number;
  /** Events per second offered (paced) or 0 (all at once). */
  readonly offeredRate: number;
  /** Deliveries per second offered: events/s × receivers (0 for a burst). */
  readonly offeredDeliveriesPerSecond: number;
  /** How long publishing the phase's events took. */
  readonly publishedSeconds: number;
  /** Receivers (webhook configs, each on its own origin) every event fans out to. */
  readonly fanOut: number;
  readonly expectedDeliveries: number;
  /** Distinct (event, receiver) deliveries that arrived. */
  readonly deliveries: number;
  /** Arrivals beyond the first of one (event, receiver). */
  readonly duplicates: number;
  /** (event, receiver) pairs that never arrived within the drain window. */
  readonly missing: number;
  /** Events of an earlier phase that arrived during this one, after that phase stopped waiting for them. */
  readonly late: number;
  /** Events a receiver got that no phase published. */
  readonly unexpected: number;
  /** Arrivals whose X-<brand>-Signature did not verify with the receiver's secret. */
  readonly badSignatures: number;
  /** Deliveries from the first event published to the last delivery. */
  readonly deliveriesPerSecond: number;
  /** From publishing the event to the receiver answering 2xx. */
  readonly eventToAckMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** CPU of the platform's processes and PostgreSQL per delivery (not the bench or Kafka). */
  readonly cpuMsPerDelivery: number;
  readonly processes: readonly ProcessUsage[];
  /** Latency per window of the phase (sustained load: per minute), by publish time. */
  readonly windows?: readonly LatencyWindow[];
}

/** Names of the noisy-neighbour scenario's phases (partner B's paced load, and A's drain). */
export const NOISY_PHASES = {
  alone: "noisy: B alone",
  refused: "noisy: B, A refused",
  silent: "noisy: B, A never answers",
  drainB: "drain: B",
  drainA: "drain: A",
} as const;

/**
 * Partner A's backlog for a receiver that is down, and how it drained once the receiver answered again.
 * Partner B's phases are in `webhooks` (NOISY_PHASES).
 */
export interface NoisyNeighbourResult {
  readonly backlog: {
    readonly configs: number;
    readonly events: number;
    /** Transactions with two events (transaction.success, then transaction.refunded). */
    readonly twoEventTransactions: number;
    readonly deliveries: number;
    /** From the first publish until the last event was handed to Kafka. */
    readonly publishSeconds: number;
    /** From the first publish until every delivery row was stored (0 when they never all were). */
    readonly storedSeconds: number;
    /** Delivery rows stored when the wait ended. */
    readonly stored: number;
  };
  readonly drain: {
    readonly expected: number;
    readonly arrived: number;
    /** From the receivers answering again to the last arrival. */
    readonly seconds: number;
    readonly deliveriesPerSecond: number;
    /** Why the wait ended: everything arrived, nothing arrived for a while, or the time limit. */
    readonly ended: "all arrived" | "stalled" | "time limit";
    readonly transactionsChecked: number;
    readonly outOfOrder: number;
    /** Partner A's delivery rows by status when the wait ended (pending ones are not lost: their retry is scheduled). */
    readonly rowsByStatus: Readonly<Record<string, number>>;
  };
}

export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

/** One statement streamed through an HTTP response (statement-render.ts). */
export interface StatementRenderResult {
  readonly format: string;
  readonly lines: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly linesPerSecond: number;
  /** Peak resident set of the server during the response minus its resident set before it, MB. */
  readonly rssRiseMb: number | undefined;
}

/** A seeded day of the ledger downloaded as CSV through the gateway (statement-download.ts). */
export interface StatementDownloadResult {
  /** Lines seeded. */
  readonly lines: number;
  /** Line records in the body (its rows less the header and the summary row). */
  readonly received: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly linesPerSecond: number;
  /** How long writing the day into the ledger took (not measured against any target). */
  readonly seedSeconds: number;
  /** The gateway process's resident set before the request and its peak during it, MB. */
  readonly rssBeforeMb?: number;
  readonly rssPeakMb?: number;
  /** Why the download did not complete (its status and body, or the connection's error); absent when it did. */
  readonly failure?: string;
}

/** A batch's fan-out against single executePayout calls of the same partner in the same run (batch-payouts.ts). */
export interface BatchResult {
  readonly items: number;
  /** From the last item sent to VALIDATED. */
  readonly validationSeconds: number;
  /** From the approval to every item's payout accepted (PROCESSING or final). */
  readonly acceptedSeconds: number;
  readonly acceptedPerSecond: number;
  /** From the approval to COMPLETED, the bench settling every item through the sandbox admin route. */
  readonly completedSeconds: number;
  readonly singlePayouts: number;
  readonly singleConcurrency: number;
  readonly singlePerSecond: number;
  /** acceptedPerSecond / singlePerSecond. */
  readonly ratio: number;
}

export interface BenchResults {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly wallSeconds: number;
  readonly quick: boolean;
  readonly machine: MachineInfo;
  /** PostgreSQL's durability settings, read back from the server every figure was measured on. */
  readonly postgresSettings: PostgresSettings;
  readonly settings: Readonly<Record<string, string | number | boolean>>;
  readonly pgbench: readonly PgbenchResult[];
  readonly http: readonly HttpScenarioResult[];
  readonly webhooks: readonly WebhookPhaseResult[];
  readonly noisyNeighbour?: NoisyNeighbourResult;
  readonly statementRender?: readonly StatementRenderResult[];
  readonly statementDownload?: StatementDownloadResult;
  readonly batch?: BatchResult;
  /** Highest peak RSS (MB) seen per process over the run. */
  readonly peakRssMb: Readonly<Record<string, number>>;
  /** False when VmHWM could not be reset, so per-scenario peaks are since process start. */
  readonly peaksPerScenario: boolean;
  readonly targets: readonly TargetCheck[];
  /** Unintended errors and failures; a non-empty list fails the run. */
  readonly problems: readonly string[];
}
