/**
 * A PostgreSQL server of this test's own (deploy/local/pg-up.sh with a private state dir and port), so a
 * test can restart or stop it without disturbing the server other test files share. Durability is turned
 * back on (fsync, synchronous_commit) so an immediate shutdown loses nothing that was acknowledged.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.js";

const SCRIPTS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "deploy", "local");

export interface OwnPostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  readonly url: string;
  /** `pg_ctl restart -m <mode>`: every session ends, the server is back when this resolves. */
  restart(mode: "fast" | "immediate"): void;
  /** `pg_ctl stop -m <mode>`; data stays. */
  stop(mode: "fast" | "immediate"): void;
  /** Starts the stopped server again on its data and port. */
  start(): void;
  /** Stops and wipes it. */
  destroy(): void;
}

export async function startOwnPostgresServer(): Promise<OwnPostgresServer> {
  const env = {
    ...process.env,
    PAYOUTS_LOCAL_DIR: join(tmpdir(), `own-pg-${randomBytes(4).toString("hex")}`),
    PGPORT: String(await freePort()),
  };
  const script = (name: string) =>
    execFileSync("bash", [join(SCRIPTS, name)], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000,
    })
      .trim()
      .split("\n")
      .at(-1) ?? "";
  const url = script("pg-up.sh");
  const bin = script("pg-bin.sh");
  const dataDir = join(env.PAYOUTS_LOCAL_DIR, "pg", "data");
  const asOwner = (command: string, args: string[]) => {
    const [file, ...rest] =
      process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--", command, ...args] : [command, ...args];
    execFileSync(file!, rest, { stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
  };
  const pgCtl = (...args: string[]) =>
    asOwner(join(bin, "pg_ctl"), ["-D", dataDir, "-w", "-t", "60", ...args]);
  asOwner(join(bin, "psql"), [
    "-h",
    "127.0.0.1",
    "-p",
    env.PGPORT,
    "-U",
    "postgres",
    "-c",
    "ALTER SYSTEM SET fsync = on",
    "-c",
    "ALTER SYSTEM SET synchronous_commit = on",
    "-c",
    "ALTER SYSTEM SET full_page_writes = on",
  ]);
  // The server must not inherit this process's pipes, or execFileSync would wait for it to exit.
  const log = join(env.PAYOUTS_LOCAL_DIR, "pg", "server.log");
  pgCtl("restart", "-m", "fast", "-l", log);
  return {
    url,
    restart: (mode) => pgCtl("restart", "-m", mode, "-l", log),
    stop: (mode) => pgCtl("stop", "-m", mode),
    // pg-up.sh starts a stopped server again on its data, with its port.
    start: () => void script("pg-up.sh"),
    destroy: () => {
      script("pg-down.sh");
      rmSync(env.PAYOUTS_LOCAL_DIR, { recursive: true, force: true });
    },
  };
}
