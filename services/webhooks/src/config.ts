import { ConfigError, isProductionMode, loadConfig, parse } from "@payouts/platform/config/env-config";
import { isLoopbackHost, listenHost } from "@payouts/platform/config/listen-host";
import { TRANSACTION_EVENTS_TOPIC } from "@payouts/platform/events/event-bus";
import {
  DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
  DEFAULT_CIRCUIT_PROBE_INTERVAL_MS,
  MAX_CIRCUIT_PROBE_INTERVAL_MS,
} from "./domain/circuit-breaker.js";
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetryScheduleMs } from "./domain/retry-policy.js";
import { parseSealingKey } from "./secrets/secret-box.js";
import { DEFAULT_HEADER_BRAND, validateHeaderBrand } from "./signing/signature.js";

const spec = {
  allowPrivateUrls: {
    env: "WEBHOOK_ALLOW_PRIVATE_URLS",
    doc: "allow http and loopback/private/link-local receivers (default true only in the embedded mode with loopback-only listeners)",
    parse: parse.boolean,
  },
  allowedPorts: {
    env: "WEBHOOK_ALLOWED_PORTS",
    doc: "comma-separated TCP ports receiver URLs may use (unset = any); the Helm chart sets the NetworkPolicy's",
    parse: portList,
  },
  retryScheduleMs: {
    env: "WEBHOOK_RETRY_SCHEDULE_MS",
    doc: "comma-separated delays in ms; entry n is the wait before attempt n + 1",
    parse: (raw: string) => unwrap(parseRetryScheduleMs(raw)),
    default: [...DEFAULT_RETRY_SCHEDULE_MS],
  },
  headerBrand: {
    env: "WEBHOOK_HEADER_BRAND",
    doc: "the word in X-<BRAND>-Signature and <BRAND>-Webhook/<version>",
    parse: (raw: string) => unwrap(validateHeaderBrand(raw)),
    default: DEFAULT_HEADER_BRAND,
  },
  concurrency: {
    env: "WEBHOOK_CONCURRENCY",
    doc: "deliveries in flight per dispatcher process (and most kept-alive connections to one receiver origin)",
    parse: parse.positiveInt,
    default: 128,
  },
  receiverConcurrency: {
    env: "WEBHOOK_RECEIVER_CONCURRENCY",
    doc: "deliveries in flight per receiver (configuration) per process, so one slow receiver cannot take every slot",
    parse: parse.positiveInt,
    default: 4,
  },
  receiverMaxConcurrency: {
    env: "WEBHOOK_RECEIVER_MAX_CONCURRENCY",
    doc: "most deliveries in flight per receiver per process: a receiver answering 2xx fast grows from WEBHOOK_RECEIVER_CONCURRENCY up to this (at most WEBHOOK_CONCURRENCY)",
    parse: parse.positiveInt,
    default: 32,
  },
  partnerConcurrency: {
    env: "WEBHOOK_PARTNER_CONCURRENCY",
    doc: "most deliveries of one partner (all its receivers) in flight per process (default half of WEBHOOK_CONCURRENCY)",
    parse: parse.positiveInt,
  },
  circuitFailureThreshold: {
    env: "WEBHOOK_CIRCUIT_FAILURE_THRESHOLD",
    doc: "consecutive failed attempts (no answer, timeout, 5xx) that open a receiver's circuit: its rows wait, untried, for a probe",
    parse: parse.positiveInt,
    default: DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
  },
  circuitProbeIntervalMs: {
    env: "WEBHOOK_CIRCUIT_PROBE_INTERVAL_MS",
    doc: `how long an open circuit waits after its last failure before one probe attempt (at most ${MAX_CIRCUIT_PROBE_INTERVAL_MS})`,
    parse: between(1, MAX_CIRCUIT_PROBE_INTERVAL_MS),
    default: DEFAULT_CIRCUIT_PROBE_INTERVAL_MS,
  },
  maxConfigsPerPartner: {
    env: "WEBHOOK_MAX_CONFIGS_PER_PARTNER",
    doc: "most webhook configs one partner may have (each receives its own copy of every event)",
    parse: parse.positiveInt,
    default: 10,
  },
  testRateLimitPerMinute: {
    env: "WEBHOOK_TEST_RATE_LIMIT_PER_MINUTE",
    doc: "test notifications (POST /webhookConfigs/{id}/test) per partner per minute, as a burst then a steady rate",
    parse: parse.positiveInt,
    default: 10,
  },
  redeliverRateLimitPerMinute: {
    env: "WEBHOOK_REDELIVER_RATE_LIMIT_PER_MINUTE",
    doc: "manual redeliveries per partner per minute, as a burst then a steady rate",
    parse: parse.positiveInt,
    default: 120,
  },
  timeoutMs: {
    env: "WEBHOOK_TIMEOUT_MS",
    doc: "whole-request timeout of one delivery attempt",
    parse: parse.positiveInt,
    default: 10_000,
  },
  pollIntervalMs: {
    env: "WEBHOOK_POLL_INTERVAL_MS",
    doc: "how often workers look for due deliveries when nothing woke them",
    parse: parse.positiveInt,
    default: 250,
  },
  workerTtlMs: {
    env: "WEBHOOK_WORKER_TTL_MS",
    doc: "how long one liveness renewal of a dispatcher process holds (renewed every quarter of it); a dead process's claims are retried after at most this",
    parse: atLeast(1_000),
    default: 4_000,
  },
  sealingKey: {
    env: "WEBHOOK_SECRET_KEY",
    doc: "32-byte AES-256-GCM key (hex or base64) sealing receiver secrets at rest",
    parse: parseSealingKey,
  },
  eventsTopic: {
    env: "TRANSACTION_EVENTS_TOPIC",
    doc: "topic of the ledger's transaction events",
    parse: parse.string,
    default: TRANSACTION_EVENTS_TOPIC,
  },
  consumerGroup: {
    env: "WEBHOOK_CONSUMER_GROUP",
    doc: "consumer group of the dispatcher on the events topic",
    parse: parse.string,
    // The service's former name, kept: Kafka stores the group's committed offsets under it, and a new
    // group would start the deployed consumers over at the topic's reset position.
    default: "webhook-dispatcher",
  },
  appVersion: {
    env: "APP_VERSION",
    doc: "version in the User-Agent; defaults to the root package.json version",
    parse: parse.string,
  },
} as const;

export interface WebhookConfig {
  readonly allowPrivateUrls: boolean;
  /** Ports a receiver URL may use (explicit, or the scheme's 443 / 80); undefined = any. */
  readonly allowedPorts: readonly number[] | undefined;
  readonly retryScheduleMs: readonly number[];
  readonly headerBrand: string;
  readonly concurrency: number;
  readonly receiverConcurrency: number;
  /** The most a receiver's adaptive limit grows to: within [receiverConcurrency, concurrency]. */
  readonly receiverMaxConcurrency: number;
  readonly partnerConcurrency: number;
  readonly circuitFailureThreshold: number;
  readonly circuitProbeIntervalMs: number;
  readonly maxConfigsPerPartner: number;
  readonly testRateLimitPerMinute: number;
  readonly redeliverRateLimitPerMinute: number;
  readonly timeoutMs: number;
  readonly pollIntervalMs: number;
  readonly workerTtlMs: number;
  readonly sealingKey: Buffer | undefined;
  readonly eventsTopic: string;
  readonly consumerGroup: string;
  readonly appVersion: string | undefined;
}

export function loadWebhookConfig(
  env: Readonly<Record<string, string | undefined>>,
  mode: "embedded" | "distributed",
): WebhookConfig {
  const config = loadConfig(spec, { ...env });
  // A generated key would be stored in the database beside the secrets it seals: a backup would reveal
  // every partner's signing secret. Production takes the key from the environment (a Secret) or stops.
  if (isProductionMode(env) && config.sealingKey === undefined) {
    throw new ConfigError([
      "WEBHOOK_SECRET_KEY is required in production: the 32-byte key sealing receiver secrets (e.g. openssl rand -base64 32)",
    ]);
  }
  // Private receivers let a partner make this host call its own network (the test endpoint answers at
  // once). Unless set explicitly, they are allowed only in the embedded sandbox while its listeners are
  // loopback-only, i.e. when the only partner is someone on this machine.
  const sandboxOnLoopback = mode === "embedded" && isLoopbackHost(listenHost(env));
  return {
    ...config,
    allowPrivateUrls: config.allowPrivateUrls ?? sandboxOnLoopback,
    receiverMaxConcurrency: Math.min(
      config.concurrency,
      Math.max(config.receiverConcurrency, config.receiverMaxConcurrency),
    ),
    partnerConcurrency: Math.min(
      config.concurrency,
      config.partnerConcurrency ?? Math.max(1, Math.ceil(config.concurrency / 2)),
    ),
  };
}

function portList(raw: string): number[] {
  const ports = parse.list(raw).map((entry) => {
    const port = parse.port(entry);
    if (port === 0) throw new Error("expected ports 1-65535");
    return port;
  });
  if (ports.length === 0) throw new Error("expected at least one port");
  return ports;
}

function atLeast(min: number): (raw: string) => number {
  return (raw) => {
    const value = parse.nonNegativeInt(raw);
    if (value < min) throw new Error(`expected an integer of at least ${min}`);
    return value;
  };
}

function between(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const value = parse.nonNegativeInt(raw);
    if (value < min || value > max) throw new Error(`expected an integer from ${min} to ${max}`);
    return value;
  };
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
