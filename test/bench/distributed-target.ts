import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { once } from "./once.js";
import type { PlatformEndpoints } from "./platform-api.js";
import { SERVICE_PROCESSES } from "./target-checks.js";

const run = promisify(execFile);

export interface DistributedTarget extends PlatformEndpoints {
  readonly stateDir: string;
  /** pid of each role's process (gateway, lookup, ...). */
  readonly pids: Readonly<Record<string, number>>;
  /** Stops every process (SIGTERM, so CPU profiles are written), keeps their logs in `logDir`. */
  stop(): Promise<void>;
}

export interface DistributedOptions {
  readonly repoRoot: string;
  readonly basePort: number;
  readonly databaseUrl: string;
  readonly kafkaBrokers: string;
  readonly build: boolean;
  /** Service settings for this run (SANDBOX_AUTO_SETTLE_MS, ...). */
  readonly env: Readonly<Record<string, string>>;
  /** Logs (and CPU profiles, when profiling) are copied here when the topology stops. */
  readonly logDir: string;
  /** Directory for V8 CPU profiles of every process; no profiling when undefined. */
  readonly profileDir?: string;
}

/**
 * The distributed topology of deploy/local/start-distributed.sh on its own base port, database and
 * webhook consumer group. A topology left over from an interrupted run on that port is stopped first.
 */
export async function startDistributed(options: DistributedOptions): Promise<DistributedTarget> {
  const scripts = join(options.repoRoot, "deploy", "local");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    PAYOUTS_BASE_PORT: String(options.basePort),
    DATABASE_URL: options.databaseUrl,
    KAFKA_BROKERS: options.kafkaBrokers,
  };
  if (options.profileDir) {
    mkdirSync(options.profileDir, { recursive: true });
    const preload = join(options.repoRoot, "test", "bench", "cpu-profile-preload.mjs");
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --import ${preload}`.trim();
    env.BENCH_PROFILE_DIR = options.profileDir;
  }
  await run("bash", [join(scripts, "stop-distributed.sh"), "--purge"], { env });
  const args = [join(scripts, "start-distributed.sh"), ...(options.build ? ["--build"] : [])];
  const { stdout } = await run("bash", args, { env, maxBuffer: 8 * 1024 * 1024 }).catch((error: unknown) => {
    const stderr = (error as { stderr?: string }).stderr ?? "";
    throw new Error(`start-distributed.sh failed:\n${stderr.split("\n").slice(-30).join("\n")}`);
  });
  const values = parseKeyValues(stdout);
  const stateDir = required(values, "STATE_DIR");
  const pids = readPids(stateDir);
  return {
    partnerUrl: required(values, "PARTNER_URL"),
    adminUrl: required(values, "ADMIN_URL"),
    adminToken: required(values, "ADMIN_TOKEN"),
    stateDir,
    pids,
    stop: once(async () => {
      await run("bash", [join(scripts, "stop-distributed.sh")], { env }).catch(() => {});
      if (existsSync(join(stateDir, "logs")))
        cpSync(join(stateDir, "logs"), options.logDir, { recursive: true });
      await run("bash", [join(scripts, "stop-distributed.sh"), "--purge"], { env }).catch(() => {});
    }),
  };
}
/** `KEY=value` lines as printed by start-distributed.sh. */
export function parseKeyValues(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}

function required(values: Record<string, string>, key: string): string {
  const value = values[key];
  if (!value) throw new Error(`start-distributed.sh printed no ${key}`);
  return value;
}

function readPids(stateDir: string): Record<string, number> {
  const pids: Record<string, number> = {};
  for (const role of SERVICE_PROCESSES) {
    const file = join(stateDir, "pids", `${role}.pid`);
    const pid = Number(readFileSync(file, "utf8").trim());
    if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no pid in ${file}`);
    pids[role] = pid;
  }
  return pids;
}
