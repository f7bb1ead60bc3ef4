/**
 * The suite's own PostgreSQL (durable: fsync and synchronous commit on) and Kafka, started with the
 * deploy/local scripts in a state dir and on ports of their own, so restarting or stopping them never
 * touches a server anyone else uses. The scripts run asynchronously: the load keeps running meanwhile.
 */
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../support/free-port.js";

const run = promisify(execFile);

export interface ChaosInfra {
  /** The server's `postgres` database URL, and the suite's database on it. */
  readonly serverUrl: string;
  readonly databaseUrl: string;
  readonly kafkaBrokers: string;
  readonly localDir: string;
  /** `pg_ctl restart -m <mode>` (pg-restart.sh). */
  pgRestart(mode: "fast" | "immediate"): Promise<void>;
  /** Stops the broker and keeps its data (kafka-stop.sh). */
  kafkaStop(): Promise<void>;
  /** Starts it again on the same data (kafka-up.sh). */
  kafkaStart(): Promise<void>;
  /** Stops both servers and deletes the state dir. */
  down(): Promise<void>;
}

const DATABASE = "payouts_chaos";

export async function startChaosInfra(repoRoot: string, log: (line: string) => void): Promise<ChaosInfra> {
  // As root the server runs as user postgres, which must reach the state dir: /tmp, not the worktree.
  const localDir = `/tmp/payouts-chaos-${process.pid}`;
  const env = {
    ...process.env,
    PAYOUTS_LOCAL_DIR: localDir,
    PGPORT: String(await freePort()),
    KAFKA_PORT: String(await freePort()),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    PG_DURABLE: "1",
  };
  const script = async (name: string, ...args: string[]) => {
    const { stdout } = await run("bash", [join(repoRoot, "deploy", "local", name), ...args], {
      env,
      maxBuffer: 1 << 20,
    });
    return stdout.trim().split("\n").pop() ?? "";
  };
  const down = async () => {
    for (const name of ["kafka-down.sh", "pg-down.sh"]) {
      await script(name).catch((error: Error) => log(`${name} failed: ${error.message}`));
    }
    rmSync(localDir, { recursive: true, force: true });
  };

  try {
    log(`PostgreSQL (durable) on ${env.PGPORT}, Kafka on ${env.KAFKA_PORT}, state in ${localDir}`);
    const [serverUrl, kafkaBrokers] = await Promise.all([script("pg-up.sh"), script("kafka-up.sh")]);
    await withClient(serverUrl, (c) => c.query(`CREATE DATABASE ${DATABASE}`));
    const databaseUrl = new URL(serverUrl);
    databaseUrl.pathname = `/${DATABASE}`;
    return {
      serverUrl,
      databaseUrl: databaseUrl.toString(),
      kafkaBrokers,
      localDir,
      pgRestart: async (mode) => {
        await script("pg-restart.sh", mode);
      },
      kafkaStop: async () => {
        await script("kafka-stop.sh");
      },
      kafkaStart: async () => {
        await script("kafka-up.sh");
      },
      down,
    };
  } catch (error) {
    await down();
    throw error;
  }
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // A server restart ends the session: an 'error' without a listener would end this process.
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The durability settings the server actually runs with. */
export async function durabilitySettings(url: string): Promise<Record<string, string>> {
  return withClient(url, async (client) => {
    const settings: Record<string, string> = {};
    for (const name of ["fsync", "synchronous_commit", "full_page_writes"]) {
      const { rows } = await client.query<{ value: string }>(`SELECT current_setting($1) AS value`, [name]);
      settings[name] = rows[0]!.value;
    }
    return settings;
  });
}
