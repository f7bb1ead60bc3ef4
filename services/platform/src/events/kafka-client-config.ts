/**
 * How a process authenticates to Kafka and protects the connection, from the environment:
 *   KAFKA_TLS             true: TLS to the brokers (system CAs unless KAFKA_TLS_CA_FILE)
 *   KAFKA_TLS_CA_FILE     PEM file of the CA the brokers' certificates chain to (implies KAFKA_TLS)
 *   KAFKA_SASL_MECHANISM  plain | scram-sha-256 | scram-sha-512; unset: no SASL
 *   KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD  this process's Kafka credentials (required with a mechanism)
 * In production mode SASL is refused without TLS: the credentials would cross the network in the clear.
 */
import { readFileSync } from "node:fs";
import type { ConnectionOptions } from "node:tls";
import type { SASLOptions } from "kafkajs";
import { ConfigError, isProductionMode, loadConfig, parse } from "../config/env-config.js";

type Env = Readonly<Record<string, string | undefined>>;

const MECHANISMS = ["plain", "scram-sha-256", "scram-sha-512"] as const;
type Mechanism = (typeof MECHANISMS)[number];

/** kafkajs client options: what createKafkaEventBus passes to `new Kafka(...)`. */
export interface KafkaSecurity {
  readonly ssl?: ConnectionOptions | boolean;
  readonly sasl?: SASLOptions;
}

export function loadKafkaSecurity(env: Env): KafkaSecurity {
  const config = loadConfig(
    {
      tls: { env: "KAFKA_TLS", doc: "TLS to the Kafka brokers", parse: parse.boolean, default: false },
      caFile: { env: "KAFKA_TLS_CA_FILE", doc: "PEM CA of the brokers' certificates", parse: readPem },
      mechanism: {
        env: "KAFKA_SASL_MECHANISM",
        doc: `SASL mechanism, one of ${MECHANISMS.join(", ")}`,
        parse: parseMechanism,
      },
      username: { env: "KAFKA_SASL_USERNAME", doc: "this process's Kafka user", parse: parse.string },
      password: { env: "KAFKA_SASL_PASSWORD", doc: "this process's Kafka password", parse: parse.string },
    },
    env,
  );
  const problems: string[] = [];
  const tls = config.tls || config.caFile !== undefined;
  if (config.mechanism !== undefined) {
    if (config.username === undefined)
      problems.push("KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM");
    if (config.password === undefined)
      problems.push("KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM");
    if (!tls && isProductionMode(env)) {
      problems.push(
        "KAFKA_SASL_MECHANISM needs KAFKA_TLS=true in production (credentials in the clear otherwise)",
      );
    }
  } else if (config.username !== undefined || config.password !== undefined) {
    problems.push("KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD need KAFKA_SASL_MECHANISM");
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...(tls ? { ssl: config.caFile === undefined ? true : { ca: [config.caFile] } } : {}),
    ...(config.mechanism === undefined
      ? {}
      : {
          sasl: {
            mechanism: config.mechanism,
            username: config.username ?? "",
            password: config.password ?? "",
          },
        }),
  };
}

function parseMechanism(raw: string): Mechanism {
  const value = raw.trim().toLowerCase();
  if (!(MECHANISMS as readonly string[]).includes(value))
    throw new Error(`expected one of ${MECHANISMS.join(", ")}`);
  return value as Mechanism;
}

function readPem(path: string): string {
  const pem = readFileSync(path, "utf8");
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new Error("expected a PEM certificate file");
  return pem;
}
