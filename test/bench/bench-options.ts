/** How long and how hard each part of the benchmark runs. */
export interface BenchOptions {
  readonly quick: boolean;
  /** Open connections of every HTTP load run (the node:http baseline uses the same). */
  readonly connections: number;
  /** Measured seconds per HTTP scenario. */
  readonly durationSeconds: number;
  /** Unmeasured seconds before each scenario (JIT, pools, caches). */
  readonly warmupSeconds: number;
  readonly pgbench: {
    readonly clients: number;
    readonly threads: number;
    readonly durationSeconds: number;
    readonly scale: number;
  };
  readonly webhooks: {
    /** Receivers (webhook configs, each on an origin of its own) every event fans out to. */
    readonly fanOut: number;
    /** Events published at once (× fanOut deliveries) to measure how fast a backlog drains. */
    readonly burstEvents: number;
    /** Sustained phase: events per second (× fanOut deliveries offered per second) and seconds. */
    readonly pacedRate: number;
    readonly pacedSeconds: number;
    /** The sustained phase's latency is also reported per window of this many seconds. */
    readonly windowSeconds: number;
    readonly noisy: NoisyNeighbourOptions;
    /** `noisy`: only the warm-up and the noisy-neighbour scenario (no burst, no sustained phase). */
    readonly phases: "all" | "noisy";
  };
  /** Write a V8 CPU profile of every service process (slower; for finding waste). */
  readonly profile: boolean;
  /** Skip the embedded-mode scenarios. */
  readonly skipEmbedded: boolean;
  /** Use services/runtime/dist as it is, even when sources are newer. */
  readonly skipBuild: boolean;
  /** Run only these parts (see PARTS); all when undefined. */
  readonly only?: ReadonlySet<string>;
}

/** Partner A's dead receivers and backlog, partner B's steady load beside them. */
export interface NoisyNeighbourOptions {
  /** A's webhook configs (receivers, each on a port of its own); every A event fans out to each. */
  readonly aConfigs: number;
  readonly aEvents: number;
  /** B's events (= deliveries: one config) per second, and the seconds of each of B's phases. */
  readonly bRate: number;
  readonly phaseSeconds: number;
  /** A's drain ends when nothing more arrived for `stallSeconds`, or after `drainLimitSeconds`. */
  readonly stallSeconds: number;
  readonly drainLimitSeconds: number;
  /** Longest wait for A's backlog to be stored. */
  readonly backlogLimitSeconds: number;
}

/** Parts of a run `--only` can pick. */
export const PARTS = [
  "baselines",
  "floors",
  "previewQuotations",
  "lookupPaymentCode",
  "getQuotation",
  "executePayout",
  "listTransactions",
  "webhooks",
  "embedded",
  "statements",
  "batch",
] as const;

const FULL: BenchOptions = {
  quick: false,
  connections: 50,
  durationSeconds: 15,
  warmupSeconds: 3,
  pgbench: { clients: 10, threads: 2, durationSeconds: 15, scale: 10 },
  webhooks: {
    fanOut: 5,
    burstEvents: 10_000,
    pacedRate: 200,
    pacedSeconds: 600,
    windowSeconds: 60,
    noisy: {
      aConfigs: 10,
      aEvents: 20_000,
      bRate: 500,
      phaseSeconds: 60,
      stallSeconds: 15,
      drainLimitSeconds: 400,
      backlogLimitSeconds: 300,
    },
    phases: "all",
  },
  profile: false,
  skipEmbedded: false,
  skipBuild: false,
};

const QUICK: BenchOptions = {
  ...FULL,
  quick: true,
  durationSeconds: 3,
  warmupSeconds: 1,
  pgbench: { clients: 10, threads: 2, durationSeconds: 3, scale: 1 },
  webhooks: {
    fanOut: 5,
    burstEvents: 200,
    pacedRate: 40,
    pacedSeconds: 10,
    windowSeconds: 4,
    noisy: {
      aConfigs: 2,
      aEvents: 500,
      bRate: 100,
      phaseSeconds: 5,
      stallSeconds: 5,
      drainLimitSeconds: 30,
      backlogLimitSeconds: 30,
    },
    phases: "all",
  },
};

const USAGE = `usage: npm run bench -- [--quick] [--profile] [--no-embedded] [--no-build] [--duration N] [--connections N] [--sustained-seconds N]
  --quick         short run for CI (about 3 minutes); fails only on errors, never on speed
  --profile       write .cpuprofile files of every service process to test/bench/out/profiles
  --no-embedded   skip the embedded-mode scenarios
  --no-build      run services/runtime/dist as it is (default: npm run build when a source is newer)
  --only A,B      run only these parts: ${PARTS.join(", ")}
                  (getQuotation needs lookupPaymentCode, executePayout needs both)
  --duration N    measured seconds per HTTP scenario (default 15, quick 3)
  --connections N connections per HTTP scenario (default 50)
  --sustained-seconds N  seconds of the sustained webhook load (default 600, quick 10)
  --webhook-phases noisy  of the webhook part, run only the noisy-neighbour scenario (default all)
  --noisy-seconds N       seconds of each of partner B's noisy-neighbour phases (default 60, quick 5)
  --noisy-backlog N       partner A's backlog of events (default 20000, quick 500)`;

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  let options: BenchOptions = argv.includes("--quick") ? QUICK : FULL;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    switch (arg) {
      case "--quick":
        break;
      case "--profile":
        options = { ...options, profile: true };
        break;
      case "--no-embedded":
        options = { ...options, skipEmbedded: true };
        break;
      case "--no-build":
        options = { ...options, skipBuild: true };
        break;
      case "--only":
        options = { ...options, only: parts(argv[++i]) };
        break;
      case "--duration":
        options = { ...options, durationSeconds: positiveInt(arg, argv[++i]) };
        break;
      case "--connections":
        options = { ...options, connections: positiveInt(arg, argv[++i]) };
        break;
      case "--sustained-seconds":
        options = {
          ...options,
          webhooks: { ...options.webhooks, pacedSeconds: positiveInt(arg, argv[++i]) },
        };
        break;
      case "--webhook-phases": {
        const value = argv[++i];
        if (value !== "noisy" && value !== "all") throw new UsageError("--webhook-phases takes noisy or all");
        options = { ...options, webhooks: { ...options.webhooks, phases: value } };
        break;
      }
      case "--noisy-seconds":
        options = {
          ...options,
          webhooks: {
            ...options.webhooks,
            noisy: { ...options.webhooks.noisy, phaseSeconds: positiveInt(arg, argv[++i]) },
          },
        };
        break;
      case "--noisy-backlog":
        options = {
          ...options,
          webhooks: {
            ...options.webhooks,
            noisy: { ...options.webhooks.noisy, aEvents: positiveInt(arg, argv[++i]) },
          },
        };
        break;
      case "--help":
      case "-h":
        throw new UsageError(USAGE);
      default:
        throw new UsageError(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  return options;
}

export class UsageError extends Error {}

/** Seconds after which a run stops itself: the HTTP parts' allowance plus what the webhook scenarios may take. */
export function runLimitSeconds(options: BenchOptions): number {
  // The statement download's seed and request (100,000 lines full, 20,000 quick).
  const statements = runs(options, "statements") ? (options.quick ? 90 : 300) : 0;
  const base = (options.quick ? 170 : 590) + statements;
  if (!runs(options, "webhooks")) return base;
  const w = options.webhooks;
  const n = w.noisy;
  // The drain wait of each paced or burst phase: burst, sustained, and B's four phases.
  const drains = (options.quick ? 30 : 60) * 6;
  return base + w.pacedSeconds + 4 * n.phaseSeconds + n.backlogLimitSeconds + n.drainLimitSeconds + drains;
}

/** Whether `part` runs with these options. */
export function runs(options: BenchOptions, part: (typeof PARTS)[number]): boolean {
  return options.only === undefined || options.only.has(part);
}

function parts(raw: string | undefined): ReadonlySet<string> {
  const names = (raw ?? "").split(",").filter(Boolean);
  const unknown = names.filter((n) => !(PARTS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--only takes a comma-separated list of ${PARTS.join(", ")}`);
  }
  return new Set(names);
}

function positiveInt(flag: string, raw: string | undefined): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`${flag} needs a positive integer`);
  return value;
}
