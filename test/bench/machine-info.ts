import { readdirSync, readFileSync } from "node:fs";
import { cpus, homedir, loadavg, totalmem } from "node:os";
import { join } from "node:path";

export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGb: number;
  readonly os: string;
  readonly node: string;
  readonly postgres: string;
  readonly kafka: string;
  /** 1-minute load average when the run started: other work on the machine skews the figures. */
  readonly loadAverageAtStart: number;
}

export function describeMachine(postgresVersion: string): MachineInfo {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: osName(),
    node: process.version,
    postgres: postgresVersion,
    kafka: kafkaVersion(),
    loadAverageAtStart: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

function osName(): string {
  try {
    const release = readFileSync("/etc/os-release", "utf8");
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(release)?.[1] ?? process.platform;
  } catch {
    return process.platform;
  }
}

/** The broker version of the jars kafka-fetch.sh cached (kafka_2.13-<version>.jar). */
function kafkaVersion(): string {
  const cache = process.env.PAYOUTS_CACHE_DIR ?? join(homedir(), ".cache", "payouts");
  try {
    for (const dir of readdirSync(cache)) {
      if (!dir.startsWith("kafka-")) continue;
      for (const jar of readdirSync(join(cache, dir, "libs"))) {
        const match = /^kafka_[\d.]+-([\d.]+)\.jar$/.exec(jar);
        if (match) return `Apache Kafka ${match[1]} (KRaft, single node)`;
      }
    }
  } catch {
    // no local cache: an external broker
  }
  return "unknown (external broker)";
}
