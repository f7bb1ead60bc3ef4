import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createRouterTransport, type Transport } from "@connectrpc/connect";
import { hashSecret } from "@payouts/gateway/internal/auth/secret-hash";
import { loadGatewayConfig } from "@payouts/gateway/internal/gateway-config";
import { type GatewayHandle, startGateway } from "@payouts/gateway/internal/gateway-server";
import { insertApp, insertPartner } from "@payouts/gateway/internal/store/partner-store";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import type { EventBus } from "@payouts/platform/events/event-bus";
import {
  createEventSigner,
  generateEventSigningKeys,
  parseSigningKey,
} from "@payouts/platform/events/event-signature";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { createKafkaEventBus } from "@payouts/platform/events/kafka-event-bus";
import { newId } from "@payouts/platform/ids";
import { createLogger } from "@payouts/platform/logging/logger";
import type { ServiceModule } from "@payouts/platform/service-module";
import {
  type BatchEvent,
  BatchEventSchema,
  type TransactionEvent,
  TransactionEventSchema,
} from "@payouts/proto/payouts/events/v1/events_pb";
import { createWebhooksService, WEBHOOKS_MIGRATIONS } from "@payouts/webhooks/webhooks-service";
import { createTestDatabase, kafkaBrokers, uniqueTopic } from "../../support/infra.js";
import type { ApiResponse, Credentials } from "../../support/test-platform.js";

// The whole-platform harness (test-platform.ts) starts every service; these tests need the dispatcher
// and the gateway only, so they are wired here and do not depend on the other services.
const ADMIN_TOKEN = "webhook-test-admin-token-0123";

const GATEWAY_MIGRATIONS = {
  schema: "gateway",
  dir: join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "gateway", "migrations"),
};

export interface HarnessOptions {
  /** Route events through the real broker (a topic and consumer group of this harness only). */
  readonly kafka?: boolean;
  readonly env?: Record<string, string>;
  readonly mode?: "embedded" | "distributed";
}

export interface Partner extends Credentials {
  readonly partnerId: string;
}

/**
 * The webhook dispatcher on a fresh real PostgreSQL database, behind the real gateway (its partner routes
 * and authentication), fed by a real Kafka topic. Only the webhook service is wired: the other services'
 * transports answer "unimplemented", which these tests never reach.
 */
export interface WebhookHarness {
  readonly db: ReturnType<typeof createPgDatabase>;
  /** The test database, for processes the test starts itself. */
  readonly databaseUrl: string;
  /** Settings the dispatcher runs with. */
  readonly env: Readonly<Record<string, string>>;
  readonly topic: string;
  dispatcher: ServiceModule;
  createPartner(): Promise<Partner>;
  api(creds: Credentials | undefined, method: string, path: string, body?: unknown): Promise<ApiResponse>;
  /** The gateway's admin API with the admin token, or with `token` (undefined: none). */
  admin(method: string, path: string, body?: unknown, token?: string | null): Promise<ApiResponse>;
  /** Publishes events to the dispatcher's topic, key = tx_id, headers as the ledger's relay sets them. */
  publish(...events: TransactionEvent[]): Promise<void>;
  /** Publishes batch.completed events as the ledger's relay does: key = batch_id, signed. */
  publishBatches(...events: BatchEvent[]): Promise<void>;
  /**
   * Stops the dispatcher and starts a new one on the same database, topic and consumer group; resolves
   * with how long the new one took to start.
   */
  restartDispatcher(): Promise<{ readonly startMs: number }>;
  close(): Promise<void>;
}

export async function startWebhookHarness(options: HarnessOptions = {}): Promise<WebhookHarness> {
  const database = await createTestDatabase();
  const db = createPgDatabase({ connectionString: database.url, applicationName: "webhook-tests" });
  await migrate(db, GATEWAY_MIGRATIONS);
  await migrate(db, WEBHOOKS_MIGRATIONS);
  const topic = uniqueTopic("test.transaction-events");
  const newBus = (): EventBus =>
    options.kafka
      ? createKafkaEventBus({ brokers: kafkaBrokers(), clientId: `webhook-tests-${topic}` })
      : createInProcessEventBus();
  const bus = newBus();
  const logger = createLogger({ service: "webhook-tests", level: process.env.TEST_LOG_LEVEL ?? "silent" });
  // The ledger's signing key stands with the harness, which publishes as the ledger does.
  const eventKeys = generateEventSigningKeys();
  const signer = createEventSigner(parseSigningKey(eventKeys.signingKey));
  const env: Readonly<Record<string, string>> = {
    EVENT_VERIFY_KEYS: eventKeys.verifyKey,
    TRANSACTION_EVENTS_TOPIC: topic,
    WEBHOOK_CONSUMER_GROUP: `${topic}.dispatcher`,
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_RETRY_SCHEDULE_MS: "0,200,200",
    WEBHOOK_POLL_INTERVAL_MS: "50",
    ...options.env,
  };
  const createDispatcher = () =>
    createWebhooksService({ db, bus, logger, transports: {}, env, mode: options.mode ?? "distributed" });

  const harness = {
    db,
    databaseUrl: database.url,
    env,
    topic,
    dispatcher: createDispatcher(),
  } as WebhookHarness & { gateway: GatewayHandle };
  // Follows the dispatcher across restarts.
  let current = createRouterTransport((r) => harness.dispatcher.routes(r));
  const webhooks: Transport = {
    unary: (...args) => current.unary(...args),
    stream: (...args) => current.stream(...args),
  };
  const unimplemented = createRouterTransport(() => {});
  const gateway = await startGateway({
    config: loadGatewayConfig(
      { PORT: "0", ADMIN_PORT: "0", HOST: "127.0.0.1", ADMIN_TOKEN },
      { embedded: true },
    ),
    db,
    transports: {
      webhooks,
      lookup: unimplemented,
      pricing: unimplemented,
      ledger: unimplemented,
      rail: unimplemented,
    },
    logger,
  });
  await harness.dispatcher.start();
  const baseUrl = `http://127.0.0.1:${gateway.partnerPort}`;
  const adminUrl = `http://127.0.0.1:${gateway.adminPort}`;
  const call = async (url: string, method: string, headers: Record<string, string>, body?: unknown) => {
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json } as ApiResponse;
  };

  return Object.assign(harness, {
    async createPartner() {
      const partnerId = newId("ptr");
      await insertPartner(db, partnerId, "Webhook test partner");
      const clientSecret = `cs_${newId("s")}`;
      const clientId = newId("ci");
      await insertApp(db, {
        clientId,
        partnerId,
        secretHash: await hashSecret(clientSecret),
        previewRateLimitPerMinute: 60,
      });
      return { partnerId, clientId, clientSecret };
    },
    async api(creds: Credentials | undefined, method: string, path: string, body?: unknown) {
      const headers: Record<string, string> = {};
      if (creds)
        headers.authorization = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString("base64")}`;
      return call(`${baseUrl}${path}`, method, headers, body);
    },
    async admin(method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN) {
      const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
      return call(`${adminUrl}${path}`, method, headers, body);
    },
    async publish(...events: TransactionEvent[]) {
      await bus.publish(
        events.map((event) =>
          signer.sign({
            topic,
            key: event.txId,
            value: toBinary(TransactionEventSchema, event),
            headers: { "event-id": event.eventId, "event-type": event.eventType },
          }),
        ),
      );
    },
    async publishBatches(...events: BatchEvent[]) {
      await bus.publish(
        events.map((event) =>
          signer.sign({
            topic,
            key: event.batchId,
            value: toBinary(BatchEventSchema, event),
            headers: { "event-id": event.eventId, "event-type": event.eventType },
          }),
        ),
      );
    },
    async restartDispatcher() {
      await harness.dispatcher.stop();
      harness.dispatcher = createDispatcher();
      current = createRouterTransport((r) => harness.dispatcher.routes(r));
      const began = performance.now();
      await harness.dispatcher.start();
      return { startMs: performance.now() - began };
    },
    async close() {
      await gateway.close();
      await harness.dispatcher.stop();
      await bus.close();
      await db.close();
      await database.drop();
    },
  });
}

export interface EventFields {
  readonly partnerId: string;
  readonly txId: string;
  readonly eventType: string;
  readonly sequence: number;
  readonly eventId?: string;
  readonly refundReason?: string;
}

/** A TransactionEvent as the ledger publishes it (KES payout, fees at full precision). */
export function transactionEvent(fields: EventFields): TransactionEvent {
  const status = fields.eventType.replace("transaction.", "").toUpperCase();
  return create(TransactionEventSchema, {
    eventId: fields.eventId ?? newId("evt"),
    eventType: fields.eventType,
    occurredAt: timestampFromDate(new Date()),
    txId: fields.txId,
    partnerId: fields.partnerId,
    status,
    sequence: BigInt(fields.sequence),
    amount: "1500.5",
    currency: "KES",
    amountUsd: "11.609284332688",
    fee: "0.474139265",
    percentageFee: "0.174139265",
    fixedFee: "0.3",
    sender: { name_first: "Ana", name_last: "Peña", country: "US" },
    recipient: { name_first: "John", account_no: "123456", bank_code: "01" },
    refundReason: fields.refundReason ?? "",
  });
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
