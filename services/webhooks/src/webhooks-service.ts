import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { readAppVersion } from "@payouts/platform/app-version";
import type { MigrationSet } from "@payouts/platform/database/migrate";
import type { Subscription } from "@payouts/platform/events/event-bus";
import { loadEventVerifier } from "@payouts/platform/events/event-signing-config";
import { newId } from "@payouts/platform/ids";
import type { ServiceContext, ServiceModule } from "@payouts/platform/service-module";
import { WebhookAdminService } from "@payouts/proto/payouts/webhooks/v1/webhooks_admin_pb";
import { WebhookService } from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import { loadWebhookConfig } from "./config.js";
import { createDeliveryWorker } from "./delivery/delivery-worker.js";
import { createNotificationSender } from "./delivery/notification-sender.js";
import { createReceiverClient } from "./delivery/receiver-client.js";
import { createManualSendLimits } from "./handlers/manual-send-limits.js";
import { createWebhookAdminHandlers } from "./handlers/webhook-admin-handlers.js";
import { createWebhookHandlers } from "./handlers/webhook-handlers.js";
import { createEventIntake } from "./intake/event-intake.js";
import { createWebhookRetention } from "./retention/webhook-retention.js";
import { sealingKeyProvider } from "./secrets/sealing-key-store.js";
import { createRefusedEventCounter } from "./telemetry/intake-metrics.js";
import { createReceiverHealthGauges } from "./telemetry/receiver-health-gauges.js";

export const WEBHOOKS_MIGRATIONS: MigrationSet = {
  schema: "webhooks",
  dir: join(dirname(fileURLToPath(import.meta.url)), "..", "migrations"),
};

/**
 * A claim outlives the longest attempt by this much before another worker may take the row over (the
 * attempt itself is aborted a second before). A dead process's claims go back sooner, when its liveness
 * lapses (WEBHOOK_WORKER_TTL_MS).
 */
const LEASE_MARGIN_MS = 2_000;

/**
 * A test notification not claimed within this long is withdrawn (its receiver's slots stayed busy). With the
 * lease after it, a TestConfig call ends within 2 s + timeout + 2 s, inside the callers' 15 s deadline.
 */
const TEST_CLAIM_WAIT_MS = 2_000;

/** Pause before the consumer is created again after it could not be (the broker unreachable at start). */
const SUBSCRIBE_RETRY_MS = 1_000;

/** How often the receiver health gauges are recomputed, and how many receivers get series of their own. */
const HEALTH_GAUGE_INTERVAL_MS = 30_000;
const HEALTH_GAUGE_TOP_RECEIVERS = 10;

/**
 * The webhook dispatcher: partner receiver configurations (RPCs), the consumer that turns transaction
 * events into delivery rows, and the workers that deliver them. Wiring only.
 *
 * Starting does not wait for the consumer group: the workers deliver stored rows and the RPCs answer
 * while the consumer joins in the background (after a dispatcher died, the broker hands its partitions
 * over only once its session timed out).
 */
export function createWebhooksService(ctx: ServiceContext): ServiceModule {
  const config = loadWebhookConfig(ctx.env, ctx.mode);
  const appVersion = config.appVersion ?? readAppVersion();
  const now = ctx.now ?? (() => new Date());
  const logger = ctx.logger;
  const secretBox = sealingKeyProvider(ctx.db, config.sealingKey, logger, ctx.mode);
  const receivers = createReceiverClient({
    allowPrivate: config.allowPrivateUrls,
    allowedPorts: config.allowedPorts,
    timeoutMs: config.timeoutMs,
    // A process never has more requests in flight than its concurrency, to one origin or to all.
    connectionsPerOrigin: config.concurrency,
  });
  const send = createNotificationSender({
    brand: config.headerBrand,
    appVersion,
    client: receivers,
    secretBox,
    now,
  });
  const worker = createDeliveryWorker({
    db: ctx.db,
    send,
    logger,
    now,
    random: Math.random,
    retryScheduleMs: config.retryScheduleMs,
    concurrency: config.concurrency,
    receiverConcurrency: config.receiverConcurrency,
    receiverMaxConcurrency: config.receiverMaxConcurrency,
    partnerConcurrency: config.partnerConcurrency,
    // A 2xx slower than a tenth of the timeout does not earn a receiver more concurrency.
    receiverFastMs: Math.ceil(config.timeoutMs / 10),
    pollIntervalMs: config.pollIntervalMs,
    leaseMs: config.timeoutMs + LEASE_MARGIN_MS,
    workerId: newId("whw", now().getTime()),
    workerTtlMs: config.workerTtlMs,
    circuit: {
      failureThreshold: config.circuitFailureThreshold,
      probeIntervalMs: config.circuitProbeIntervalMs,
    },
  });
  const handlers = createWebhookHandlers({
    db: ctx.db,
    secretBox,
    allowPrivateUrls: config.allowPrivateUrls,
    allowedPorts: config.allowedPorts,
    maxConfigsPerPartner: config.maxConfigsPerPartner,
    limits: createManualSendLimits(ctx.db, now, {
      test: config.testRateLimitPerMinute,
      redeliver: config.redeliverRateLimitPerMinute,
    }),
    testWait: { claimMs: TEST_CLAIM_WAIT_MS, answerMs: config.timeoutMs + LEASE_MARGIN_MS },
    now,
    newConfigId: () => newId("whc", now().getTime()),
    wakeWorkers: worker.wake,
  });
  const adminHandlers = createWebhookAdminHandlers({ db: ctx.db, now, wakeWorkers: worker.wake });
  const intake = createEventIntake({
    db: ctx.db,
    logger,
    now,
    random: Math.random,
    retryScheduleMs: config.retryScheduleMs,
    onStored: worker.wake,
    preclaim: worker.preclaim,
    verifier: loadEventVerifier(ctx.env),
    onRefused: createRefusedEventCounter(),
  });
  const retention = createWebhookRetention({ db: ctx.db, env: ctx.env, logger, now });
  const healthGauges = createReceiverHealthGauges({
    db: ctx.db,
    logger,
    now,
    intervalMs: HEALTH_GAUGE_INTERVAL_MS,
    topN: HEALTH_GAUGE_TOP_RECEIVERS,
  });
  let subscription: Subscription | undefined;
  let consuming: Promise<void> | undefined;
  const stopping = new AbortController();

  const subscribe = async (): Promise<void> => {
    for (let attempt = 1; !stopping.signal.aborted; attempt++) {
      try {
        const joined = await ctx.bus.subscribe({
          topic: config.eventsTopic,
          groupId: config.consumerGroup,
          batchHandler: intake,
        });
        if (stopping.signal.aborted) {
          await joined.stop();
          return;
        }
        subscription = joined;
        logger.info(
          { topic: config.eventsTopic, group: config.consumerGroup },
          "consuming transaction events",
        );
        return;
      } catch (error) {
        logger.error(
          { err: error, attempt, topic: config.eventsTopic },
          "could not start the transaction event consumer; trying again",
        );
        await sleep(SUBSCRIBE_RETRY_MS, undefined, { signal: stopping.signal }).catch(() => {});
      }
    }
  };

  return {
    name: "webhooks",
    serviceNames: [WebhookService.typeName, WebhookAdminService.typeName],
    migrations: WEBHOOKS_MIGRATIONS,
    routes: (router) => {
      router.service(WebhookService, handlers);
      router.service(WebhookAdminService, adminHandlers);
    },
    async start() {
      await secretBox();
      worker.start();
      retention.start();
      healthGauges.start();
      consuming = subscribe();
      logger.info(
        {
          topic: config.eventsTopic,
          group: config.consumerGroup,
          allow_private_urls: config.allowPrivateUrls,
          allowed_ports: config.allowedPorts ?? "any",
          retry_schedule_ms: config.retryScheduleMs,
          concurrency: config.concurrency,
        },
        "webhook dispatcher started",
      );
    },
    async stop() {
      stopping.abort();
      await consuming;
      // Leaves the group at once: a replacement gets the partitions without waiting for a session timeout.
      await subscription?.stop();
      subscription = undefined;
      await worker.stop();
      await receivers.close();
      await retention.stop();
      healthGauges.stop();
    },
  };
}
