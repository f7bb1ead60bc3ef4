/**
 * Delivers due callbacks from rail.submissions until the gateway acknowledges them, with backoff. A
 * callback can be delivered more than once (e.g. a crash after the POST and before marking it); the
 * ledger treats a repeated verdict as a no-op.
 */
import { createPeriodicTask } from "@payouts/platform/background/periodic-task";
import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import { callbackBackoffMs } from "../domain/sandbox-outcome.js";
import { claimDueCallbacks, markCallbackFailed, markDelivered } from "../store/submission-store.js";
import { type CallbackTarget, sendRailCallback } from "./rail-callback-sender.js";

const CLAIM_MS = 60_000;
const BATCH = 20;

export interface CallbackDispatcher {
  /** Delivers what is due (only `txId` when given); returns how many callbacks were acknowledged. */
  deliverDue(txId?: string): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createCallbackDispatcher(options: {
  readonly db: Database;
  readonly logger: Logger;
  readonly target: CallbackTarget;
  readonly pollMs: number;
  readonly now: () => Date;
}): CallbackDispatcher {
  const { db, logger, target, now } = options;

  const deliverDue = async (txId?: string): Promise<number> => {
    const claimed = await claimDueCallbacks(db, now(), CLAIM_MS, BATCH, txId);
    // Each claimed callback is a different transaction, so they go out together: a bulk payout's items
    // settle at the gateway's pace, not one round trip after another.
    const outcomes = await Promise.all(
      claimed.map(async (submission) => {
        try {
          await sendRailCallback(target, submission);
          await markDelivered(db, submission.txId, now());
          return true;
        } catch (error) {
          const retryAt = new Date(now().getTime() + callbackBackoffMs(submission.callbackAttempts + 1));
          logger.warn({ tx_id: submission.txId, err: error }, "rail callback failed; will retry");
          await markCallbackFailed(db, submission.txId, String((error as Error).message), retryAt);
          return false;
        }
      }),
    );
    return outcomes.filter(Boolean).length;
  };

  const task = createPeriodicTask({
    name: "rail callbacks",
    intervalMs: options.pollMs,
    logger,
    run: async () => {
      await deliverDue();
    },
  });
  return { deliverDue, start: () => task.start(), stop: () => task.stop() };
}
