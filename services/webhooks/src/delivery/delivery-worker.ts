/**
 * Delivery workers of one process: claim due rows, send each one independently, record the outcome.
 *
 * Every claimed delivery runs on its own (up to `concurrency` at once, at most `receiverConcurrency` per
 * configuration), so a slow or dead receiver holds only its own slots and never delays another receiver.
 * Workers poll every `pollIntervalMs` and are woken at once when new rows are stored in this process or
 * a delivery finishes (its successor in the same transaction may now be due).
 */
import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import {
  contextFromTraceparent,
  inSpan,
  markFailed,
  SpanKind,
  untraced,
} from "@payouts/platform/telemetry/trace-context";
import { decideAfterAttempt, describeFailure, storedResponseBody } from "../domain/delivery-outcome.js";
import { isNotifiedEventType } from "../domain/event-kinds.js";
import type { AttemptOutcome } from "../domain/retry-policy.js";
import { disableConfig } from "../store/config-store.js";
import {
  type AttemptResult,
  type ClaimedDelivery,
  claimDueDeliveries,
  recordAttempt,
  releaseExpiredClaims,
} from "../store/delivery-queue-store.js";
import { createDeliveryMetrics, type DeliveryMetrics } from "../telemetry/delivery-metrics.js";
import type { NotificationSender } from "./notification-sender.js";
import type { ReceiverAnswer } from "./receiver-client.js";

export interface DeliveryWorkerOptions {
  readonly db: Database;
  readonly send: NotificationSender;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly random: () => number;
  readonly retryScheduleMs: readonly number[];
  readonly concurrency: number;
  readonly receiverConcurrency: number;
  readonly pollIntervalMs: number;
  /** How long a claim stays valid; longer than one attempt can take. */
  readonly leaseMs: number;
}

export interface DeliveryWorker {
  start(): void;
  /** Look for due work now instead of at the next poll. */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const metrics = createDeliveryMetrics();
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let loop: Promise<void> | undefined;
  let woken = false;
  let interruptSleep: (() => void) | undefined;
  let releasedAt = Number.NEGATIVE_INFINITY;

  const wake = () => {
    woken = true;
    interruptSleep?.();
  };

  const sleep = () =>
    new Promise<void>((resolve) => {
      if (woken || !running) return resolve();
      const timer = setTimeout(finish, options.pollIntervalMs);
      function finish() {
        clearTimeout(timer);
        interruptSleep = undefined;
        resolve();
      }
      interruptSleep = finish;
    });

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => {
      inFlight.delete(work);
      wake();
    });
  };

  const claimBatch = async (): Promise<number> => {
    const free = options.concurrency - inFlight.size;
    if (free <= 0) return 0;
    const now = options.now();
    // Claims expire only when a worker died mid-attempt (leases last timeoutMs + 50 s), so looking for
    // them once per poll interval is enough; every finished attempt wakes this loop, hundreds a second.
    if (performance.now() - releasedAt >= options.pollIntervalMs) {
      releasedAt = performance.now();
      await releaseExpiredClaims(options.db, now);
    }
    const claimed = await claimDueDeliveries(options.db, {
      now,
      leaseUntil: new Date(now.getTime() + options.leaseMs),
      limit: free,
      perConfigLimit: options.receiverConcurrency,
    });
    for (const delivery of claimed) track(attempt(delivery, options, metrics));
    return claimed.length;
  };

  const run = async () => {
    while (running) {
      woken = false;
      try {
        await claimBatch();
      } catch (error) {
        options.logger.error({ err: error }, "claiming due deliveries failed");
      }
      await sleep();
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake,
    async stop() {
      running = false;
      interruptSleep?.();
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * One attempt, as a span of the transaction's trace (child of the consumed event's span). The receiver
 * request itself is untraced: partners get the documented headers, not our trace context.
 */
async function attempt(
  delivery: ClaimedDelivery,
  options: DeliveryWorkerOptions,
  metrics: DeliveryMetrics,
): Promise<void> {
  await inSpan(
    "webhook delivery attempt",
    {
      kind: SpanKind.CLIENT,
      parent: contextFromTraceparent(delivery.traceparent),
      attributes: {
        tx_id: delivery.tx_id,
        partner_id: delivery.partner_id,
        delivery_id: delivery.delivery_id,
        event_id: delivery.event_id,
        event_type: delivery.event_type,
        config_id: delivery.config_id,
        attempt: delivery.attempts,
      },
    },
    async (span) => {
      try {
        const answer = await untraced(() => sendClaimed(delivery, options));
        const recorded = await record(delivery, answer, options);
        span.setAttributes({ outcome: recorded.status, "http.response.status_code": recorded.statusCode });
        metrics.attempted({
          eventType: delivery.event_type,
          status: recorded.status,
          attempts: delivery.attempts,
          occurredAt: delivery.event_occurred_at,
          at: recorded.at,
        });
      } catch (error) {
        // The claim's lease expires and the row is retried; nothing is lost.
        markFailed(span, error);
        options.logger.error(
          { err: error, delivery_id: delivery.delivery_id },
          "recording a delivery attempt failed",
        );
      }
    },
  );
}

async function sendClaimed(
  delivery: ClaimedDelivery,
  options: DeliveryWorkerOptions,
): Promise<ReceiverAnswer> {
  if (!isNotifiedEventType(delivery.event_type)) {
    return { error: `event type ${delivery.event_type} is not notified`, latencyMs: 0 };
  }
  return options.send(delivery, {
    eventId: delivery.event_id,
    eventType: delivery.event_type,
    body: delivery.body,
    attempt: delivery.attempts,
  });
}

async function record(
  delivery: ClaimedDelivery,
  answer: ReceiverAnswer,
  options: DeliveryWorkerOptions,
): Promise<{ status: AttemptResult["status"]; statusCode: number; at: Date }> {
  const at = options.now();
  const outcome: AttemptOutcome = "error" in answer ? { error: answer.error } : { status: answer.status };
  const decision = decideAfterAttempt({
    outcome,
    attemptsMade: delivery.attempts,
    schedule: options.retryScheduleMs,
    nowMs: at.getTime(),
    random: options.random,
    retryAfterHeader: "error" in answer ? undefined : answer.retryAfter,
  });
  const result: AttemptResult =
    decision.kind === "retry"
      ? { status: "pending", nextAttemptAt: new Date(decision.atMs) }
      : { status: decision.kind === "delivered" ? "delivered" : "dead" };
  const attemptRecord = {
    deliveryId: delivery.delivery_id,
    attempt: delivery.attempts,
    statusCode: "error" in answer ? 0 : answer.status,
    error: describeFailure(outcome),
    latencyMs: answer.latencyMs,
    at,
    responseBody: "error" in answer ? undefined : storedResponseBody(answer.body),
  };
  await options.db.transaction(async (tx) => {
    const applied = await recordAttempt(tx, attemptRecord, result);
    if (applied && decision.kind === "disable") {
      await disableConfig(tx, delivery.config_id, `receiver answered 410 Gone at ${at.toISOString()}`, at);
    }
  });
  options.logger.info(
    {
      delivery_id: delivery.delivery_id,
      event_id: delivery.event_id,
      config_id: delivery.config_id,
      attempt: delivery.attempts,
      status_code: attemptRecord.statusCode,
      latency_ms: answer.latencyMs,
      outcome: result.status,
      ...(attemptRecord.error === undefined ? {} : { error: attemptRecord.error }),
    },
    "webhook attempt",
  );
  return { status: result.status, statusCode: attemptRecord.statusCode, at };
}
