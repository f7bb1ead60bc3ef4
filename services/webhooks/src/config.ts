import { loadConfig, parse } from "@payouts/platform/config/env-config";
import { TRANSACTION_EVENTS_TOPIC } from "@payouts/platform/events/event-bus";
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetryScheduleMs } from "./domain/retry-policy.js";
import { DEFAULT_HEADER_BRAND, validateHeaderBrand } from "./domain/signature.js";
import { parseSealingKey } from "./secrets/secret-box.js";

const spec = {
  allowPrivateUrls: {
    env: "WEBHOOK_ALLOW_PRIVATE_URLS",
    doc: "allow http and loopback/private/link-local receivers (default true only in the embedded mode)",
    parse: parse.boolean,
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
    doc: "deliveries in flight per dispatcher process",
    parse: positiveInt,
    default: 16,
  },
  receiverConcurrency: {
    env: "WEBHOOK_RECEIVER_CONCURRENCY",
    doc: "deliveries in flight per receiver (configuration) per process, so one slow receiver cannot take every slot",
    parse: positiveInt,
    default: 4,
  },
  timeoutMs: {
    env: "WEBHOOK_TIMEOUT_MS",
    doc: "whole-request timeout of one delivery attempt",
    parse: positiveInt,
    default: 10_000,
  },
  pollIntervalMs: {
    env: "WEBHOOK_POLL_INTERVAL_MS",
    doc: "how often workers look for due deliveries when nothing woke them",
    parse: positiveInt,
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
  readonly retryScheduleMs: readonly number[];
  readonly headerBrand: string;
  readonly concurrency: number;
  readonly receiverConcurrency: number;
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
  return { ...config, allowPrivateUrls: config.allowPrivateUrls ?? mode === "embedded" };
}

function positiveInt(raw: string): number {
  const value = parse.nonNegativeInt(raw);
  if (value === 0) throw new Error("expected an integer greater than 0");
  return value;
}

function atLeast(min: number): (raw: string) => number {
  return (raw) => {
    const value = parse.nonNegativeInt(raw);
    if (value < min) throw new Error(`expected an integer of at least ${min}`);
    return value;
  };
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
