import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { notDurable, type PostgresSettings, readPostgresSettings } from "./pg-settings.js";

/** A server the benchmark uses, and how to stop it if the benchmark started it. */
export interface InfraServer {
  readonly url: string;
  /** True when this run started it (and stops it at the end). */
  readonly startedHere: boolean;
  stop(): void;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Last line of stdout of a deploy/local script (the scripts print their address there). */
function runScript(repoRoot: string, script: string, env: NodeJS.ProcessEnv = process.env): string {
  const out = execFileSync("bash", [join(repoRoot, "deploy", "local", script)], {
    encoding: "utf8",
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").pop() ?? "";
}

/**
 * PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL when set, else pg-up.sh (which reuses a server it
 * already runs). A server this run had to start is stopped again by `stop()`. Its settings are read back
 * from the server (`settings`).
 *
 * `durable` (full runs): the server must have fsync, synchronous_commit and full_page_writes on. A
 * BENCH_DATABASE_URL that does not is refused (it was named on purpose); otherwise, when the candidate
 * (TEST_DATABASE_URL, or the local server on PGPORT) is not durable, the run starts a durable server of
 * its own with `PG_DURABLE=1 pg-up.sh` in BENCH_PG_DIR (default /tmp/payouts-bench-durable) on
 * BENCH_PGPORT (default 55480), and stops it at the end, leaving the shared server alone.
 */
export async function ensurePostgres(
  repoRoot: string,
  options: { durable: boolean; log: (line: string) => void },
): Promise<InfraServer & { settings: PostgresSettings }> {
  const given = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const localRunning = await portOpen(Number(process.env.PGPORT ?? 55433));
  // A durable run does not start the fast local server only to find it is not durable.
  if (options.durable && !given && !localRunning)
    return startDurablePostgres(repoRoot, options.log, "no PostgreSQL given or running");
  const candidate = await candidatePostgres(repoRoot);
  const settings = await readPostgresSettings(candidate.url);
  const off = notDurable(settings);
  if (!options.durable || off.length === 0) return { ...candidate, settings };
  candidate.stop();
  if (process.env.BENCH_DATABASE_URL) {
    throw new Error(
      `BENCH_DATABASE_URL has ${off.join(", ")} off: a full run measures durable PostgreSQL (unset it to let ` +
        "the bench start a durable server of its own, or use --quick)",
    );
  }
  return startDurablePostgres(repoRoot, options.log, `${candidate.url} has ${off.join(", ")} off`);
}

/** `PG_DURABLE=1 pg-up.sh` in BENCH_PG_DIR on BENCH_PGPORT; refuses a server there that is not durable. */
async function startDurablePostgres(
  repoRoot: string,
  log: (line: string) => void,
  why: string,
): Promise<InfraServer & { settings: PostgresSettings }> {
  const dir = process.env.BENCH_PG_DIR ?? "/tmp/payouts-bench-durable";
  const port = process.env.BENCH_PGPORT ?? "55480";
  log(`${why}: starting a durable PostgreSQL (PG_DURABLE=1) in ${dir} on port ${port}`);
  const env = { ...process.env, PAYOUTS_LOCAL_DIR: dir, PGPORT: port, PG_DURABLE: "1" };
  const alreadyRunning = await portOpen(Number(port));
  const url = runScript(repoRoot, "pg-up.sh", env);
  const own: InfraServer = {
    url,
    startedHere: !alreadyRunning,
    stop: () => {
      if (!alreadyRunning) runScript(repoRoot, "pg-down.sh", env);
    },
  };
  const ownSettings = await readPostgresSettings(url);
  const stillOff = notDurable(ownSettings);
  if (stillOff.length > 0) {
    own.stop();
    throw new Error(
      `the PostgreSQL in ${dir} (port ${port}) still has ${stillOff.join(", ")} off: it was started without ` +
        `PG_DURABLE=1; stop it (PAYOUTS_LOCAL_DIR=${dir} PGPORT=${port} deploy/local/pg-down.sh) and run again`,
    );
  }
  return { ...own, settings: ownSettings };
}

async function candidatePostgres(repoRoot: string): Promise<InfraServer> {
  const given = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (given) return { url: given, startedHere: false, stop: () => {} };
  const running = await portOpen(Number(process.env.PGPORT ?? 55433));
  const url = runScript(repoRoot, "pg-up.sh");
  return {
    url,
    startedHere: !running,
    stop: () => {
      if (!running) runScript(repoRoot, "pg-down.sh");
    },
  };
}

/** Kafka: BENCH_KAFKA_BROKERS or TEST_KAFKA_BROKERS when set, else kafka-up.sh; same rule as above. */
export async function ensureKafka(repoRoot: string): Promise<InfraServer> {
  const given = process.env.BENCH_KAFKA_BROKERS ?? process.env.TEST_KAFKA_BROKERS;
  if (given) return { url: given, startedHere: false, stop: () => {} };
  const running = await portOpen(Number(process.env.KAFKA_PORT ?? 19092));
  const url = runScript(repoRoot, "kafka-up.sh");
  return {
    url,
    startedHere: !running,
    stop: () => {
      if (!running) runScript(repoRoot, "kafka-down.sh");
    },
  };
}

/** A database of its own on the server, dropped by `drop()`. */
export async function createDatabase(
  serverUrl: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const withAdmin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await withAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await withAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => withAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** The server's version string and the pid of its postmaster (the parent of every backend). */
export async function describePostgres(
  serverUrl: string,
): Promise<{ version: string; postmasterPid?: number }> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const res = await client.query<{ version: string; pid: number }>(
      "SELECT current_setting('server_version') AS version, pg_backend_pid() AS pid",
    );
    const row = res.rows[0]!;
    const postmasterPid = parentPid(row.pid);
    return { version: `PostgreSQL ${row.version}`, ...(postmasterPid ? { postmasterPid } : {}) };
  } finally {
    await client.end();
  }
}

function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined; // not on this machine
  }
}

/** The local Kafka broker process listening on `port` (a kafka.Kafka JVM whose config names it). */
export function findKafkaPid(port: number): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const at = args.indexOf("kafka.Kafka");
      const config = at >= 0 ? args[at + 1] : undefined;
      if (config && readFileSync(config, "utf8").includes(`PLAINTEXT://127.0.0.1:${port}`))
        return Number(entry);
    } catch {
      // gone, or not readable
    }
  }
  return undefined;
}

const BUILT_PACKAGES = [
  "proto",
  "services/platform",
  "services/lookup",
  "services/pricing",
  "services/ledger",
  "services/webhooks",
  "services/sandbox-rail",
  "gateway",
  "services/runtime",
];

/**
 * True when services/runtime/dist/cli.js is missing or older than a TypeScript source of a built package
 * (`npm run build` rewrites every output, the runtime's after the gateway's).
 */
export function buildIsStale(repoRoot: string): boolean {
  let built: number;
  try {
    built = statSync(join(repoRoot, "services", "runtime", "dist", "cli.js")).mtimeMs;
  } catch {
    return true;
  }
  return BUILT_PACKAGES.some(
    (pkg) => newestSource(join(repoRoot, pkg, pkg === "proto" ? "gen" : "src")) > built,
  );
}

function newestSource(dir: string): number {
  let newest = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    const stat = statSync(path);
    if (stat.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.endsWith(".ts") && !entry.endsWith(".test.ts")) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}
