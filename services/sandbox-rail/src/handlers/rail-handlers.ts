/**
 * payouts.rail.v1.RailService for the sandbox: SubmitPayout accepts (idempotently by tx_id) and plans the
 * callback; SettlePayout forces an outcome and reports it at once through the same callback path;
 * CancelPayout refuses a payout for good when the rail does not have it yet.
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { Database } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import type { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import type { CallbackDispatcher } from "../callback/callback-dispatcher.js";
import type { SandboxRailConfig } from "../config.js";
import { RAIL } from "../domain/rail-reasons.js";
import { isRailOutcome, sandboxVerdict } from "../domain/sandbox-outcome.js";
import { reject, rejection } from "../reasons.js";
import {
  findSubmission,
  forceOutcome,
  insertCancellation,
  insertSubmission,
  reopenCallback,
} from "../store/submission-store.js";

export function createRailHandlers(deps: {
  readonly db: Database;
  readonly config: SandboxRailConfig;
  readonly dispatcher: CallbackDispatcher;
  readonly now: () => Date;
}): Pick<ServiceImpl<typeof RailService>, "submitPayout" | "cancelPayout" | "settlePayout"> {
  const { db, config, dispatcher, now } = deps;
  return {
    async submitPayout(req) {
      if (!req.txId) throw reject("MISSING_REQUIRED_FIELD", "tx_id");
      const at = now();
      const verdict = sandboxVerdict(req.paymentDestination);
      const stored = await insertSubmission(
        db,
        {
          txId: req.txId,
          providerReference: newId("sbx"),
          countryCode: req.countryCode,
          currency: req.currency,
          amount: req.amount,
          destinationType: req.destinationType,
          paymentDestination: req.paymentDestination,
          paymentDestinationCode: req.paymentDestinationCode,
          outcome: verdict.outcome,
          reason: verdict.reason,
          nextCallbackAt: config.autoSettleMs > 0 ? new Date(at.getTime() + config.autoSettleMs) : undefined,
        },
        at,
      );
      // Cancelled before it arrived (CancelPayout): the ledger reversed the debit, so never pay it.
      return { providerReference: stored.providerReference, accepted: stored.cancelledAt === undefined };
    },

    async cancelPayout(req) {
      if (!req.txId) throw reject("MISSING_REQUIRED_FIELD", "tx_id");
      const stored = await insertCancellation(
        db,
        req.txId,
        newId("sbx"),
        req.reason || "cancelled before submission",
        now(),
      );
      // A payout the sandbox accepted is reported by its callback, never withdrawn: the callback may
      // already be on its way, and an operator decides it with SettlePayout.
      if (stored.cancelledAt) return { cancelled: true, providerReference: "" };
      return { cancelled: false, providerReference: stored.providerReference };
    },

    async settlePayout(req) {
      if (!isRailOutcome(req.outcome)) {
        throw rejection(RAIL.error("INVALID_FIELD", "outcome must be SUCCESS or FAILED", "outcome"));
      }
      const submission = await findSubmission(db, req.txId);
      if (!submission) {
        throw reject("TRANSACTION_NOT_FOUND", req.txId);
      }
      if (submission.cancelledAt) {
        throw reject("PAYOUT_CANCELLED", req.txId);
      }
      if (submission.deliveredAt && submission.outcome !== req.outcome) {
        throw reject("PAYOUT_ALREADY_SETTLED", req.txId, submission.outcome);
      }
      const reason = req.reason || (req.outcome === "FAILED" ? "sandbox: failed by operator" : "");
      if (submission.deliveredAt) {
        // Same verdict again: send it once more (harmless for the ledger) and report the delivery.
        await reopenCallback(db, req.txId, now());
      } else {
        await forceOutcome(db, req.txId, req.outcome, reason, now());
      }
      return { delivered: await deliverNow(req.txId) };
    },
  };

  /**
   * Delivers the callback of `txId` now. The background poller may have claimed the same row a moment
   * earlier (then this call finds nothing to claim): wait for that delivery instead of answering "not
   * delivered" while it is in flight, and take the row over if the poller's attempt failed.
   */
  async function deliverNow(txId: string): Promise<boolean> {
    const deadline = Date.now() + config.callbackTimeoutMs + 2_000;
    for (;;) {
      if ((await dispatcher.deliverDue(txId)) > 0) return true;
      if ((await findSubmission(db, txId))?.deliveredAt) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
