/**
 * Delivery workers of one process: claim due rows, send each one independently, record the outcome.
 * A receiver whose circuit is open (circuit-breaker.ts) or that is paused is simply not claimed, so a
 * worker has nothing to do for it and sleeps its poll interval as usual.
 *
 * Every claimed delivery runs on its own (up to `concurrency` at once, at most the receiver's adaptive limit
 * per configuration (receiver-limit.ts: from `receiverConcurrency` up to `receiverMaxConcurrency`), at most
 * `partnerConcurrency` per partner), so a slow or dead receiver holds only its own slots and never delays
 * another receiver.
 * Workers poll every `pollIntervalMs` and are woken at once when new rows are stored pending in this
 * process or a delivery finishes (its successor in the same transaction may now be due). Rows the intake
 * stored already claimed by this worker (`preclaim`) are sent at once, without a claim statement.
 *
 * Claims are recovered promptly when something goes wrong: a claim whose answer could not be recorded (or
 * whose worker hit an error) is released at once; a claim of a process that died is released by the other
 * processes as soon as that process stops renewing its liveness (worker-liveness.ts), and in any case when
 * its lease (attempt timeout + 2 s) runs out. An attempt is aborted before its lease ends and when this
 * process's liveness lapses, so a row is never sent by two workers at once.
 */
import { performance } from "node:perf_hooks";
import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import {
  contextFromTraceparent,
  inSpan,
  markFailed,
  SpanKind,
  untraced,
} from "@payouts/platform/telemetry/trace-context";
import { type CircuitSettings, circuitEffect } from "../domain/circuit-breaker.js";
import {
  decideAfterAttempt,
  decideAfterTestAttempt,
  describeFailure,
  storedResponseBody,
} from "../domain/delivery-outcome.js";
import { isNotifiedEventType } from "../domain/event-kinds.js";
import { createReceiverLimits } from "../domain/receiver-limit.js";
import type { AttemptOutcome } from "../domain/retry-policy.js";
import { dropExpiredPreviousSecrets } from "../store/config-store.js";
import {
  type AttemptResult,
  type ClaimedDelivery,
  claimDueDeliveries,
  queueOutgrewItsPlans,
  releaseAbandonedClaims,
  releaseClaim,
} from "../store/delivery-queue-store.js";
import type { PreclaimOptions } from "../store/delivery-store.js";
import { pruneTestDeliveries } from "../store/test-delivery-store.js";
import { pruneDeadWorkers } from "../store/worker-store.js";
import { createDeliveryMetrics, type DeliveryMetrics } from "../telemetry/delivery-metrics.js";
import { type AttemptRecorder, createAttemptRecorder } from "./attempt-recorder.js";
import type { NotificationSender } from "./notification-sender.js";
import type { ReceiverAnswer } from "./receiver-client.js";
import { createWorkerLiveness } from "./worker-liveness.js";

/** An attempt is aborted this long before its lease ends (the lease is stamped after the local clock starts). */
const LEASE_SAFETY_MS = 1_000;
/** A claim given back after an error is due again after this pause (no hot loop on a persistent fault). */
const RELEASE_DELAY_MS = 1_000;
/** Dead workers' rows are pruned at most this often. */
const PRUNE_EVERY_MS = 60_000;
/** Most finished attempts stored by one statement. */
const RECORD_BATCH = 500;

export interface DeliveryWorkerOptions {
  readonly db: Database;
  readonly send: NotificationSender;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly random: () => number;
  readonly retryScheduleMs: readonly number[];
  readonly concurrency: number;
  /** Each receiver's starting (and lowest) limit of deliveries in flight. */
  readonly receiverConcurrency: number;
  /** The most a receiver's limit grows to while it answers 2xx fast. */
  readonly receiverMaxConcurrency: number;
  /** A 2xx slower than this does not grow its receiver's limit. */
  readonly receiverFastMs: number;
  /** Most deliveries of one partner (all its configurations) in flight from this process. */
  readonly partnerConcurrency: number;
  readonly pollIntervalMs: number;
  /** How long a claim stays valid; longer than one attempt can take. */
  readonly leaseMs: number;
  /** This process's id in webhooks.workers. */
  readonly workerId: string;
  /** How long one liveness renewal holds; a dead process's claims are released after at most this. */
  readonly workerTtlMs: number;
  /** Per-receiver circuit breaker: failures that open it, and the wait before a probe. */
  readonly circuit: CircuitSettings;
}

export interface DeliveryWorker {
  start(): void;
  /** Look for due work now instead of at the next poll. */
  wake(): void;
  /**
   * Reserves up to `wanted` of this process's free slots for deliveries about to be stored (insertDeliveries with
   * `preclaim`): undefined when there are none, when the last claim found rows to take (waiting rows go
   * first), or while the worker is stopped or cannot prove it is alive (its claims could be released
   * under it). The reservation ends with `adopt` (after the commit: the rows
   * stored claimed are sent at once, exactly like claimed rows) or `cancel` (nothing was committed).
   */
  preclaim(wanted: number): Preclaim | undefined;
  /** Stops claiming and waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
}

export interface Preclaim extends PreclaimOptions {
  adopt(claimed: readonly ClaimedDelivery[]): void;
  cancel(): void;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const metrics = createDeliveryMetrics();
  const recorder = createAttemptRecorder({
    db: options.db,
    maxBatch: RECORD_BATCH,
    circuit: options.circuit,
    onCircuitChanges: (changes) => {
      for (const change of changes) {
        metrics.circuitChanged(change.transition);
        if (change.transition === "opened") {
          options.logger.warn(
            { config_id: change.configId },
            "receiver circuit opened: its deliveries wait, untried, for a probe attempt",
          );
        } else {
          options.logger.info({ config_id: change.configId }, "receiver circuit closed: deliveries resume");
        }
      }
    },
  });
  const limits = createReceiverLimits({
    initial: options.receiverConcurrency,
    max: options.receiverMaxConcurrency,
    fastMs: options.receiverFastMs,
  });
  const inFlight = new Set<Promise<void>>();
  /** Claims whose receiver answered and whose record is being stored: their slot is free again. */
  const answered = new Set<string>();
  let running = false;
  let loop: Promise<void> | undefined;
  let woken = false;
  let interruptSleep: (() => void) | undefined;
  /** Slots reserved by preclaims whose rows are not stored yet. */
  let reserved = 0;
  /**
   * The last claim found nothing to take: no due row is waiting. Only then are new rows claimed at intake;
   * while rows wait (a backlog, retries, receivers at their cap) they keep their turn in the claim and new
   * rows queue behind them, as without the intake claim.
   */
  let idle = false;
  /** Claims are planned per call while the queue has outgrown its prepared plans (checked every poll interval). */
  let planned: "prepared" | "per-call" = "per-call";
  let releasedAt = Number.NEGATIVE_INFINITY;
  let prunedAt = Number.NEGATIVE_INFINITY;
  const liveness = createWorkerLiveness({
    db: options.db,
    workerId: options.workerId,
    ttlMs: options.workerTtlMs,
    logger: options.logger,
  });

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
    const now = options.now();
    // Abandoned claims, and whether the queue outgrew its prepared plans, are looked at once per poll
    // interval: every finished attempt wakes this loop, hundreds of times a second under load.
    if (performance.now() - releasedAt >= options.pollIntervalMs) {
      releasedAt = performance.now();
      planned = (await queueOutgrewItsPlans(options.db)) ? "per-call" : "prepared";
      const released = await releaseAbandonedClaims(options.db, now);
      if (released > 0) {
        options.logger.warn(
          { released },
          "released abandoned delivery claims (a worker stopped, or a lease ran out); they are due again",
        );
      }
      if (performance.now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = performance.now();
        await pruneDeadWorkers(options.db);
        await pruneTestDeliveries(options.db);
        await dropExpiredPreviousSecrets(options.db, now);
      }
    }
    const free = freeSlots();
    // A worker that cannot prove it is alive claims nothing: its claims could be released under it.
    if (free <= 0 || !liveness.alive()) return 0;
    const claimStarted = performance.now();
    // Taken before claiming: if the liveness lapses while the claim runs, these attempts stop at once.
    const alive = liveness.signal();
    const claimed = await claimDueDeliveries(options.db, {
      now,
      leaseMs: options.leaseMs,
      workerId: options.workerId,
      limit: free,
      perConfigLimit: options.receiverConcurrency,
      raisedLimits: limits.aboveInitial(),
      perPartnerLimit: options.partnerConcurrency,
      answered: [...answered],
      planned,
    });
    idle = claimed.length === 0;
    launch(claimed, alive, claimStarted);
    return claimed.length;
  };

  const freeSlots = () => options.concurrency - (inFlight.size - answered.size) - reserved;

  /** Sends claimed rows, each on its own; `claimStarted` is when the statement that claimed them began. */
  const launch = (claimed: readonly ClaimedDelivery[], alive: AbortSignal, claimStarted: number) => {
    for (const delivery of claimed) {
      const stop = attemptStop(alive, options.leaseMs - LEASE_SAFETY_MS - (performance.now() - claimStarted));
      const ticket = limits.start(delivery.config_id);
      const answeredNow = (answer: ReceiverAnswer) => {
        ticket.answered(answer);
        answered.add(delivery.delivery_id);
        wake();
      };
      track(
        attempt(delivery, stop.signal, options, recorder, metrics, answeredNow).finally(() => {
          answered.delete(delivery.delivery_id);
          ticket.end();
          stop.done();
        }),
      );
    }
  };

  const preclaim = (wanted: number): Preclaim | undefined => {
    // Only as many as the rows to store: a reserved slot is idle until their statement commits.
    const free = Math.min(wanted, freeSlots());
    if (!running || !idle || free <= 0 || !liveness.alive()) return undefined;
    reserved += free;
    const claimStarted = performance.now();
    const alive = liveness.signal();
    let open = true;
    const end = () => {
      if (!open) return false;
      open = false;
      reserved -= free;
      return true;
    };
    return {
      workerId: options.workerId,
      leaseMs: options.leaseMs,
      limit: free,
      perConfigLimit: options.receiverConcurrency,
      raisedLimits: limits.aboveInitial(),
      perPartnerLimit: options.partnerConcurrency,
      answered: [...answered],
      adopt(claimed) {
        if (end()) launch(claimed, alive, claimStarted);
      },
      cancel() {
        if (end()) wake();
      },
    };
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
      liveness.start();
      loop = run();
    },
    wake,
    preclaim,
    async stop() {
      running = false;
      interruptSleep?.();
      await loop;
      await Promise.allSettled([...inFlight]);
      await liveness.stop();
    },
  };
}

/**
 * One attempt, as a span of the transaction's trace (child of the consumed event's span). The receiver
 * request itself is untraced: partners get the documented headers, not our trace context.
 */
async function attempt(
  delivery: ClaimedDelivery,
  signal: AbortSignal,
  options: DeliveryWorkerOptions,
  recorder: AttemptRecorder,
  metrics: DeliveryMetrics,
  onAnswered: (answer: ReceiverAnswer) => void,
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
        const answer = await untraced(() => sendClaimed(delivery, signal, options));
        // The receiver is done with it: its slot may take the next row while the record is stored.
        onAnswered(answer);
        const recorded = await record(delivery, answer, options, recorder);
        span.setAttributes({ outcome: recorded.status, "http.response.status_code": recorded.statusCode });
        if (delivery.kind === "test") return;
        metrics.attempted({
          eventType: delivery.event_type,
          status: recorded.status,
          attempts: delivery.attempts,
          occurredAt: delivery.event_occurred_at,
          at: recorded.at,
        });
      } catch (error) {
        markFailed(span, error);
        options.logger.error(
          { err: error, delivery_id: delivery.delivery_id },
          "recording a delivery attempt failed",
        );
        await giveBack(delivery, options);
      }
    },
  );
}

/** Aborted when the worker's liveness lapses or the claim's lease is about to run out, whichever is first. */
function attemptStop(liveness: AbortSignal, untilLeaseEndsMs: number) {
  const lease = new AbortController();
  const timer = setTimeout(
    () => lease.abort(new Error("the claim's lease is running out")),
    Math.max(0, untilLeaseEndsMs),
  );
  return { signal: AbortSignal.any([liveness, lease.signal]), done: () => clearTimeout(timer) };
}

/**
 * The claim goes back to pending (due shortly) instead of staying `delivering` until its lease runs out:
 * the answer could not be recorded, or the worker failed. If the database is unreachable for this too, the
 * other processes release it when this one's liveness or the lease lapses; nothing is lost either way.
 */
async function giveBack(delivery: ClaimedDelivery, options: DeliveryWorkerOptions): Promise<void> {
  try {
    await releaseClaim(
      options.db,
      { deliveryId: delivery.delivery_id, attempt: delivery.attempts },
      new Date(options.now().getTime() + RELEASE_DELAY_MS),
      "attempt interrupted: its answer could not be recorded; it will be retried",
    );
  } catch (error) {
    options.logger.warn(
      { err: error, delivery_id: delivery.delivery_id },
      "releasing a delivery claim failed; it is released when the claim's lease or this worker's liveness lapses",
    );
  }
}

async function sendClaimed(
  delivery: ClaimedDelivery,
  signal: AbortSignal,
  options: DeliveryWorkerOptions,
): Promise<ReceiverAnswer> {
  if (!isNotifiedEventType(delivery.event_type)) {
    return { error: `event type ${delivery.event_type} is not notified`, latencyMs: 0, local: true };
  }
  return options.send(
    delivery,
    {
      eventId: delivery.event_id,
      eventType: delivery.event_type,
      body: delivery.body,
      attempt: delivery.attempts,
    },
    signal,
  );
}

async function record(
  delivery: ClaimedDelivery,
  answer: ReceiverAnswer,
  options: DeliveryWorkerOptions,
  recorder: AttemptRecorder,
): Promise<{ status: AttemptResult["status"]; statusCode: number; at: Date }> {
  const at = options.now();
  const outcome: AttemptOutcome = "error" in answer ? { error: answer.error } : { status: answer.status };
  const decision =
    delivery.kind === "test"
      ? decideAfterTestAttempt(outcome)
      : decideAfterAttempt({
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
  await recorder.record({
    record: attemptRecord,
    result,
    // Both kinds count: a test notification's answer is as much the receiver's as an event's.
    circuit: circuitEffect(answer),
    disableConfigReason:
      decision.kind === "disable" ? `receiver answered 410 Gone at ${at.toISOString()}` : undefined,
  });
  // A delivered attempt is in the delivery log, the metrics and the trace already: logged at debug, so a
  // busy dispatcher does not write a line per notification. Failed attempts stay at info.
  const level = result.status === "delivered" && delivery.kind === "event" ? "debug" : "info";
  options.logger[level](
    {
      delivery_id: delivery.delivery_id,
      event_id: delivery.event_id,
      config_id: delivery.config_id,
      attempt: delivery.attempts,
      status_code: attemptRecord.statusCode,
      latency_ms: answer.latencyMs,
      outcome: result.status,
      ...(delivery.kind === "test" ? { test: true } : {}),
      ...(attemptRecord.error === undefined ? {} : { error: attemptRecord.error }),
    },
    "webhook attempt",
  );
  return { status: result.status, statusCode: attemptRecord.statusCode, at };
}
