/**
 * A single-node Kafka of a test's own whose only client listener requires SASL/SCRAM-SHA-256, with the
 * users given at format time (KRaft `--add-scram`). Same jars as deploy/local/kafka-up.sh (kafka-fetch.sh);
 * the broker everyone shares keeps its plaintext listener.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.js";

const SCRIPTS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "deploy", "local");

export interface SaslKafka {
  readonly brokers: string;
  destroy(): Promise<void>;
}

export async function startSaslKafka(users: Readonly<Record<string, string>>): Promise<SaslKafka> {
  const dir = mkdtempSync(join(tmpdir(), "sasl-kafka-"));
  const port = await freePort();
  let controllerPort = await freePort();
  while (controllerPort === port) controllerPort = await freePort();
  const brokerPassword = randomBytes(12).toString("hex");
  const config = join(dir, "server.properties");
  writeFileSync(
    config,
    [
      "process.roles=broker,controller",
      "node.id=1",
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=SASL_PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=SASL_PLAINTEXT://127.0.0.1:${port}`,
      "controller.listener.names=CONTROLLER",
      "inter.broker.listener.name=SASL_PLAINTEXT",
      "listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT",
      "sasl.enabled.mechanisms=SCRAM-SHA-256",
      "sasl.mechanism.inter.broker.protocol=SCRAM-SHA-256",
      `listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="broker" password="${brokerPassword}";`,
      `log.dirs=${join(dir, "data")}`,
      "num.partitions=3",
      "offsets.topic.replication.factor=1",
      "offsets.topic.num.partitions=1",
      "transaction.state.log.replication.factor=1",
      "transaction.state.log.min.isr=1",
      "transaction.state.log.num.partitions=1",
      "group.initial.rebalance.delay.ms=0",
      "num.network.threads=2",
      "num.io.threads=2",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "log4j.properties"),
    "log4j.rootLogger=WARN, stdout\nlog4j.appender.stdout=org.apache.log4j.ConsoleAppender\n" +
      "log4j.appender.stdout.layout=org.apache.log4j.PatternLayout\n" +
      "log4j.logger.kafka.server.KafkaRaftServer=INFO\n",
  );
  const libs = execFileSync("bash", [join(SCRIPTS, "kafka-fetch.sh")], { encoding: "utf8" }).trim();
  const jvm = [
    "-Xms128m",
    "-Xmx384m",
    "-XX:+UseSerialGC",
    `-Dlog4j.configuration=file:${join(dir, "log4j.properties")}`,
    "-cp",
    `${libs}/*`,
  ];
  const scram = Object.entries({ broker: brokerPassword, ...users }).flatMap(([name, password]) => [
    "--add-scram",
    `SCRAM-SHA-256=[name=${name},password=${password}]`,
  ]);
  const clusterId = `A${randomBytes(16).toString("base64url").slice(0, 21)}`;
  execFileSync(
    "java",
    [...jvm, "kafka.tools.StorageTool", "format", "-t", clusterId, "-c", config, ...scram],
    {
      stdio: "ignore",
      timeout: 120_000,
    },
  );
  const log = join(dir, "kafka.log");
  const broker: ChildProcess = spawn(
    "sh",
    ["-c", `exec java "$@" > '${log}' 2>&1`, "java", ...jvm, "kafka.Kafka", config],
    {
      stdio: "ignore",
    },
  );
  const deadline = Date.now() + 120_000;
  while (!readLog(log).includes("Kafka Server started")) {
    if (Date.now() > deadline || broker.exitCode !== null) {
      broker.kill("SIGKILL");
      throw new Error(`SASL Kafka did not start:\n${readLog(log).slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    brokers: `127.0.0.1:${port}`,
    async destroy() {
      const exited = new Promise((resolve) => broker.once("exit", resolve));
      broker.kill("SIGTERM");
      const timer = setTimeout(() => broker.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readLog(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
