/**
 * How a process authenticates to Kafka and protects the connection, from the environment:
 *   KAFKA_TLS             true: TLS to the brokers (system CAs unless KAFKA_TLS_CA_FILE)
 *   KAFKA_TLS_CA_FILE     PEM file of the CA the brokers' certificates chain to (implies KAFKA_TLS)
 *   KAFKA_SASL_MECHANISM  plain | scram-sha-256 | scram-sha-512; unset: no SASL
 *   KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD  this process's Kafka credentials (required with a mechanism)
 * In production mode SASL is refused without TLS: the credentials would cross the network in the clear.
 *
 * How fast a process notices a change and gets going again (loadKafkaTiming):
 *   KAFKA_SESSION_TIMEOUT_MS     a consumer that stopped heartbeating leaves its group after this long;
 *                                the broker's group.min.session.timeout.ms (6000 by default) is the floor
 *   KAFKA_HEARTBEAT_INTERVAL_MS  a consumer's heartbeats, at most a third of the session timeout
 *   KAFKA_RETRY_INITIAL_MS, KAFKA_RETRY_MAX_MS, KAFKA_RETRIES  kafkajs retries of every call: first wait,
 *                                longest wait, attempts before the call fails (a consumer then restarts)
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

/** kafkajs settings of the connection, the retries and the consumer group membership. */
export interface KafkaTiming {
  readonly retry: {
    readonly initialRetryTime: number;
    readonly maxRetryTime: number;
    readonly retries: number;
  };
  readonly sessionTimeout: number;
  readonly heartbeatInterval: number;
}

/**
 * A replacement consumer takes the dead one's partitions once the broker dropped it, a session timeout
 * after its last heartbeat: 6 s is the lowest a broker accepts by default. Waits between retries stay
 * short even late in an outage, so a call or a restarted consumer reaches a broker that came back within
 * a second; 10 retries (about 7.5 s) before a call fails.
 */
export const DEFAULT_KAFKA_TIMING: KafkaTiming = {
  retry: { initialRetryTime: 100, maxRetryTime: 1_000, retries: 10 },
  sessionTimeout: 6_000,
  heartbeatInterval: 1_000,
};

export function loadKafkaTiming(env: Env): KafkaTiming {
  const d = DEFAULT_KAFKA_TIMING;
  const config = loadConfig(
    {
      sessionTimeout: {
        env: "KAFKA_SESSION_TIMEOUT_MS",
        doc: "consumer group session timeout (not below the broker's group.min.session.timeout.ms)",
        parse: parse.positiveInt,
        default: d.sessionTimeout,
      },
      heartbeatInterval: {
        env: "KAFKA_HEARTBEAT_INTERVAL_MS",
        doc: "consumer heartbeat interval, at most a third of the session timeout",
        parse: parse.positiveInt,
        default: d.heartbeatInterval,
      },
      initialRetryTime: {
        env: "KAFKA_RETRY_INITIAL_MS",
        doc: "first wait before a failed Kafka call is retried",
        parse: parse.positiveInt,
        default: d.retry.initialRetryTime,
      },
      maxRetryTime: {
        env: "KAFKA_RETRY_MAX_MS",
        doc: "longest wait between two attempts of a Kafka call",
        parse: parse.positiveInt,
        default: d.retry.maxRetryTime,
      },
      retries: {
        env: "KAFKA_RETRIES",
        doc: "retries of a Kafka call before it fails",
        parse: parse.positiveInt,
        default: d.retry.retries,
      },
    },
    env,
  );
  const problems: string[] = [];
  if (config.heartbeatInterval * 3 > config.sessionTimeout)
    problems.push("KAFKA_HEARTBEAT_INTERVAL_MS must be at most a third of KAFKA_SESSION_TIMEOUT_MS");
  if (config.initialRetryTime > config.maxRetryTime)
    problems.push("KAFKA_RETRY_INITIAL_MS must not exceed KAFKA_RETRY_MAX_MS");
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    retry: {
      initialRetryTime: config.initialRetryTime,
      maxRetryTime: config.maxRetryTime,
      retries: config.retries,
    },
    sessionTimeout: config.sessionTimeout,
    heartbeatInterval: config.heartbeatInterval,
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
