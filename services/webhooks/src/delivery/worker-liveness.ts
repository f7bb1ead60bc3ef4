/**
 * A dispatcher process's proof of life in `webhooks.workers`, renewed every quarter of `ttlMs`. Other
 * processes release the claims of a worker whose row was not renewed in time (delivery-queue-store.ts), so a
 * killed dispatcher's deliveries go out again within about `ttlMs` instead of waiting for their leases.
 *
 * The other side of that bargain: a worker that cannot prove it is alive must not keep sending, or a row
 * could be sent by two processes at once. `signal()` is aborted as soon as the last successful renewal is
 * about to run out (measured from before that renewal was sent, minus a safety margin), and the attempts
 * that carry it stop; `alive()` tells the claim loop not to claim until a renewal succeeds again.
 */
import { performance } from "node:perf_hooks";
import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import { removeWorker, renewWorker } from "../store/worker-store.js";

export interface WorkerLiveness {
  readonly workerId: string;
  /** Starts renewing (the first renewal is sent at once). */
  start(): void;
  /** True while the last renewal is known to hold. */
  alive(): boolean;
  /** Aborted when the liveness lapses; a fresh one is handed out after that. */
  signal(): AbortSignal;
  /** Stops renewing and removes the row: whatever this worker still held is free at once. */
  stop(): Promise<void>;
}

export interface WorkerLivenessOptions {
  readonly db: Database;
  readonly workerId: string;
  readonly ttlMs: number;
  readonly logger: Logger;
}

export function createWorkerLiveness(options: WorkerLivenessOptions): WorkerLiveness {
  const { db, workerId, ttlMs, logger } = options;
  const renewEveryMs = Math.max(50, Math.floor(ttlMs / 4));
  const safetyMs = Math.floor(ttlMs / 4);
  let validUntil = Number.NEGATIVE_INFINITY;
  let controller = new AbortController();
  let interval: NodeJS.Timeout | undefined;
  let lapseTimer: NodeJS.Timeout | undefined;
  let renewing: Promise<void> | undefined;
  let running = false;

  const lapse = () => {
    validUntil = Number.NEGATIVE_INFINITY;
    controller.abort(new Error("this dispatcher could not renew its liveness in time"));
    controller = new AbortController();
  };

  const renew = async () => {
    const sentAt = performance.now();
    try {
      await renewWorker(db, workerId, ttlMs);
    } catch (error) {
      logger.warn({ err: error, worker_id: workerId }, "renewing the dispatcher's liveness failed");
      return;
    }
    if (!running) return;
    validUntil = sentAt + ttlMs - safetyMs;
    clearTimeout(lapseTimer);
    lapseTimer = setTimeout(lapse, Math.max(0, validUntil - performance.now()));
  };

  const tick = () => {
    if (renewing !== undefined || !running) return;
    renewing = renew().finally(() => {
      renewing = undefined;
    });
  };

  return {
    workerId,
    start() {
      if (running) return;
      running = true;
      tick();
      interval = setInterval(tick, renewEveryMs);
    },
    alive: () => performance.now() < validUntil,
    signal: () => controller.signal,
    async stop() {
      running = false;
      clearInterval(interval);
      await renewing;
      clearTimeout(lapseTimer);
      validUntil = Number.NEGATIVE_INFINITY;
      try {
        await removeWorker(db, workerId);
      } catch (error) {
        logger.warn({ err: error, worker_id: workerId }, "removing the dispatcher's liveness row failed");
      }
    },
  };
}
