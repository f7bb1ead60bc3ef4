/**
 * A Kafka broker of this test's own (deploy/local/kafka-up.sh with a private state dir and ports), so a
 * test can stop and restart it without disturbing the broker other test files share.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../support/test-platform.js";

const SCRIPTS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "deploy", "local");

export interface OwnKafkaBroker {
  readonly brokers: string;
  /** SIGTERM and wait for the process to exit; data stays. */
  stop(): Promise<void>;
  /** Start again on the same data and ports. */
  start(): void;
  /** Stop and wipe. */
  destroy(): void;
}

export async function startOwnKafkaBroker(): Promise<OwnKafkaBroker> {
  const brokerPort = await freePort();
  let controllerPort = await freePort();
  // Two probes can hand back the same just-released port; the broker needs two distinct ones.
  while (controllerPort === brokerPort) controllerPort = await freePort();
  const env = {
    ...process.env,
    PAYOUTS_LOCAL_DIR: join(tmpdir(), `ledger-kafka-${randomBytes(4).toString("hex")}`),
    KAFKA_PORT: String(brokerPort),
    KAFKA_CONTROLLER_PORT: String(controllerPort),
  };
  const up = () =>
    execFileSync("bash", [join(SCRIPTS, "kafka-up.sh")], {
      env,
      encoding: "utf8",
      // stderr is kept so a failed start explains itself in the thrown error.
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 180_000,
    })
      .trim()
      .split("\n")
      .at(-1) ?? "";
  const brokers = up();
  const pidFile = join(env.PAYOUTS_LOCAL_DIR, "kafka", "kafka.pid");
  return {
    brokers,
    async stop() {
      const pid = Number(readFileSync(pidFile, "utf8").trim());
      process.kill(pid, "SIGTERM");
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      process.kill(pid, "SIGKILL");
    },
    start() {
      up();
    },
    destroy() {
      execFileSync("bash", [join(SCRIPTS, "kafka-down.sh")], { env, stdio: "ignore", timeout: 120_000 });
    },
  };
}
