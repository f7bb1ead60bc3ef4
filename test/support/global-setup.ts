import { execFileSync } from "node:child_process";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

/**
 * Finds real PostgreSQL and Kafka for the integration tests, in this order:
 *   1. TEST_DATABASE_URL / TEST_KAFKA_BROKERS from the environment (CI sets them);
 *   2. containers through testcontainers, when a container engine answers;
 *   3. the deploy/local scripts (PostgreSQL from the system's binaries, Kafka from Maven Central jars).
 * If none works the run fails here, saying what is missing: tests never skip for lack of a service.
 */

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    kafkaBrokers: string;
  }
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const stops: Array<() => Promise<void>> = [];

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let databaseUrl = process.env.TEST_DATABASE_URL;
  let kafkaBrokers = process.env.TEST_KAFKA_BROKERS;

  if (!databaseUrl || !kafkaBrokers) {
    const fromContainers = await tryContainers(!databaseUrl, !kafkaBrokers);
    databaseUrl ??= fromContainers.databaseUrl;
    kafkaBrokers ??= fromContainers.kafkaBrokers;
  }
  if (!databaseUrl) {
    const owned = !(await portOpen(Number(process.env.PGPORT ?? 55433)));
    databaseUrl = runLocalScript("pg-up.sh", owned ? "pg-down.sh" : undefined, "PostgreSQL");
  }
  if (!kafkaBrokers) {
    const owned = !(await portOpen(Number(process.env.KAFKA_PORT ?? 19092)));
    kafkaBrokers = runLocalScript("kafka-up.sh", owned ? "kafka-down.sh" : undefined, "Kafka");
  }

  project.provide("databaseUrl", databaseUrl);
  project.provide("kafkaBrokers", kafkaBrokers);
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}

async function tryContainers(
  needPg: boolean,
  needKafka: boolean,
): Promise<{ databaseUrl?: string; kafkaBrokers?: string }> {
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    await getContainerRuntimeClient();
  } catch {
    return {};
  }
  const out: { databaseUrl?: string; kafkaBrokers?: string } = {};
  if (needPg) {
    const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
    const pg = await new PostgreSqlContainer("postgres:15-alpine").start();
    stops.push(async () => void (await pg.stop()));
    out.databaseUrl = pg.getConnectionUri();
  }
  if (needKafka) {
    const { KafkaContainer } = await import("@testcontainers/kafka");
    const kafka = await new KafkaContainer("confluentinc/cp-kafka:7.9.2").withKraft().start();
    stops.push(async () => void (await kafka.stop()));
    out.kafkaBrokers = `${kafka.getHost()}:${kafka.getMappedPort(9093)}`;
  }
  return out;
}

/** Whether something already listens there: then the scripts reuse it and the run must not stop it. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Runs a deploy/local up script; `down` is registered for teardown only when this run started the server. */
function runLocalScript(up: string, down: string | undefined, what: string): string {
  const script = join(root, "deploy", "local", up);
  try {
    const out = execFileSync("bash", [script], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      timeout: 600_000,
    });
    const last = out.trim().split("\n").at(-1) ?? "";
    if (!last) throw new Error(`${up} printed no address`);
    if (down) {
      stops.push(async () => {
        execFileSync("bash", [join(root, "deploy", "local", down)], { stdio: "inherit" });
      });
    }
    return last;
  } catch (error) {
    throw new Error(
      `No ${what} for the integration tests. Set TEST_DATABASE_URL / TEST_KAFKA_BROKERS, or run a container ` +
        `engine, or make deploy/local/${up} work (see deploy/local/README.md). Cause: ${(error as Error).message}`,
    );
  }
}
