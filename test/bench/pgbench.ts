import { execFile, execFileSync } from "node:child_process";
import {
  accessSync,
  constants,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { percentile } from "./percentile.js";

const run = promisify(execFile);

/** The database commit ceiling: what PostgreSQL itself sustains on this machine, measured by pgbench. */
export interface PgbenchResult {
  readonly script: string;
  readonly clients: number;
  readonly durationSeconds: number;
  readonly transactions: number;
  readonly failed: number;
  readonly tps: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly average: number };
}

export interface PgbenchTarget {
  readonly binary: string;
  /** postgres://user@host:port/db of the server; pgbench gets its own database there. */
  readonly serverUrl: string;
}

/**
 * pgbench from the PostgreSQL 15 binaries the deploy/local scripts use: $PGBENCH, then pg-bin.sh's
 * directory, then PATH; when none is found, install-postgres.sh installs the server package (which ships
 * pgbench on Debian) and the search runs again.
 */
export function locatePgbench(repoRoot: string): string {
  const found = findPgbench(repoRoot);
  if (found) return found;
  process.stderr.write("bench: pgbench not found; running deploy/local/install-postgres.sh\n");
  execFileSync("bash", [join(repoRoot, "deploy/local/install-postgres.sh")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const installed = findPgbench(repoRoot);
  if (!installed) {
    throw new Error(
      "pgbench not found after install-postgres.sh (on RPM systems it is in postgresql15-contrib); set PGBENCH",
    );
  }
  return installed;
}

function findPgbench(repoRoot: string): string | undefined {
  const candidates: string[] = [];
  if (process.env.PGBENCH) candidates.push(process.env.PGBENCH);
  try {
    const bin = execFileSync("bash", [join(repoRoot, "deploy/local/pg-bin.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    candidates.push(join(bin, "pgbench"));
  } catch {
    // no PostgreSQL 15 binaries yet
  }
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir) candidates.push(join(dir, "pgbench"));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export interface PgbenchRun {
  readonly clients: number;
  readonly threads: number;
  readonly durationSeconds: number;
  readonly scale: number;
}

/**
 * Runs the built-in TPC-B-like script and a single-row INSERT script, each for a fixed time, in a
 * database created for the purpose and dropped afterwards.
 */
export async function runPgbenchBaselines(
  target: PgbenchTarget,
  options: PgbenchRun,
): Promise<PgbenchResult[]> {
  const url = new URL(target.serverUrl);
  const database = `bench_pgbench_${process.pid}`;
  const common = [
    "-h",
    url.hostname,
    "-p",
    url.port || "5432",
    "-U",
    decodeURIComponent(url.username || "postgres"),
  ];
  const work = mkdtempSync(join(tmpdir(), "payouts-pgbench-"));
  const psql = (sql: string) => pgbenchSql(target.binary, common, "postgres", sql);
  try {
    await psql(`DROP DATABASE IF EXISTS ${database}`);
    await psql(`CREATE DATABASE ${database}`);
    await run(target.binary, [...common, "-i", "-q", "-s", String(options.scale), database]);
    await pgbenchSql(target.binary, common, database, CREATE_INSERT_TABLE);
    const insertScript = join(work, "single-insert.sql");
    writeFileSync(insertScript, SINGLE_INSERT_SCRIPT);
    const tpcb = await timedRun(target.binary, common, database, work, options, "tpcb-like", [
      "-b",
      "tpcb-like",
    ]);
    const insert = await timedRun(target.binary, common, database, work, options, "single-insert", [
      "-n",
      "-f",
      insertScript,
    ]);
    return [tpcb, insert];
  } finally {
    await psql(`DROP DATABASE IF EXISTS ${database}`).catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

const CREATE_INSERT_TABLE = `CREATE TABLE IF NOT EXISTS bench_insert (
  id text PRIMARY KEY,
  partner_id text NOT NULL,
  amount numeric(38, 18) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`;

/** One committed single-row INSERT per transaction, the shape of a transaction row of the ledger. */
const SINGLE_INSERT_SCRIPT = `\\set amount random(1, 100000000)
INSERT INTO bench_insert (id, partner_id, amount) VALUES (gen_random_uuid()::text, 'ptr_bench', :amount / 100.0);
`;

async function timedRun(
  binary: string,
  common: readonly string[],
  database: string,
  work: string,
  options: PgbenchRun,
  name: string,
  script: readonly string[],
): Promise<PgbenchResult> {
  const prefix = join(work, name);
  const { stdout } = await run(
    binary,
    [
      ...common,
      ...script,
      "-c",
      String(options.clients),
      "-j",
      String(options.threads),
      "-T",
      String(options.durationSeconds),
      "-l",
      `--log-prefix=${prefix}`,
      database,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const summary = parsePgbenchSummary(stdout);
  const latencies = readTransactionLog(work, name);
  return {
    script: name,
    clients: options.clients,
    durationSeconds: options.durationSeconds,
    transactions: summary.transactions,
    failed: summary.failed,
    tps: summary.tps,
    latencyMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      average: summary.latencyAverageMs,
    },
  };
}

/** Runs SQL through pgbench's own connection (no psql needed): a one-transaction custom script. */
async function pgbenchSql(
  binary: string,
  common: readonly string[],
  database: string,
  sql: string,
): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "payouts-pgbench-sql-"));
  try {
    const file = join(work, "statement.sql");
    writeFileSync(file, `${sql.trim().replace(/;$/, "")};\n`);
    await run(binary, [...common, "-n", "-t", "1", "-c", "1", "-f", file, database]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface PgbenchSummary {
  readonly transactions: number;
  readonly failed: number;
  readonly tps: number;
  readonly latencyAverageMs: number;
}

/** Reads the summary pgbench prints at the end of a run. */
export function parsePgbenchSummary(stdout: string): PgbenchSummary {
  const number = (pattern: RegExp): number => {
    const match = pattern.exec(stdout);
    if (!match) throw new Error(`pgbench output lacks ${pattern}:\n${stdout}`);
    return Number(match[1]);
  };
  const failed = /number of failed transactions: (\d+)/.exec(stdout);
  return {
    transactions: number(/number of transactions actually processed: (\d+)/),
    failed: failed ? Number(failed[1]) : 0,
    tps: number(/tps = ([\d.]+) \(without initial connection time\)/),
    latencyAverageMs: number(/latency average = ([\d.]+) ms/),
  };
}

/** Per-transaction latencies (ms) from pgbench's `-l` logs: field 3 is the elapsed time in µs. */
export function parseTransactionLog(text: string): number[] {
  const latencies: number[] = [];
  for (const line of text.split("\n")) {
    const micros = Number(line.split(" ")[2]);
    if (line && Number.isFinite(micros)) latencies.push(micros / 1000);
  }
  return latencies;
}

function readTransactionLog(dir: string, prefix: string): number[] {
  const latencies: number[] = [];
  for (const file of readdirSync(dir)) {
    if (!file.startsWith(`${prefix}.`)) continue;
    for (const value of parseTransactionLog(readFileSync(join(dir, file), "utf8"))) latencies.push(value);
  }
  return latencies;
}
