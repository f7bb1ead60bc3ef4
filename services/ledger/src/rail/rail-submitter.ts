/**
 * Hands PROCESSING payouts to the rail: right after executePayout commits, and again from a retry loop
 * for any the rail did not acknowledge (error, timeout, crash between commit and submission). The rail
 * deduplicates by tx_id, so a second submission of the same payout is harmless.
 */
import { toDecimalString } from "@payouts/platform/money/decimal";
import type { LedgerDeps } from "../operations/ledger-deps.js";
import { recordRailResult } from "../operations/record-rail-result.js";
import {
  dueRailSubmissions,
  markRailAttemptFailed,
  markRailSubmitted,
} from "../store/rail-submission-store.js";
import { findTransaction, type StoredTransaction } from "../store/transaction-store.js";
import type { PayoutRail, PayoutSubmission } from "./payout-rail.js";

const MAX_BACKOFF_MS = 5 * 60_000;

export interface RailSubmitter {
  submit(txId: string): Promise<void>;
  /** A payout executePayout has just committed (PROCESSING, not submitted): submitted without reading it again. */
  submitExecuted(tx: StoredTransaction): Promise<void>;
  /** One pass of the retry loop; returns how many payouts it tried. */
  retryDue(): Promise<number>;
}

export function createRailSubmitter(deps: LedgerDeps, rail: PayoutRail | undefined): RailSubmitter {
  const submitExecuted = async (tx: StoredTransaction): Promise<void> => {
    const txId = tx.txId;
    if (!rail) {
      deps.logger.warn({ tx_id: txId }, "no payout rail configured; payout stays PROCESSING");
      return;
    }
    try {
      const receipt = await rail.submit(submissionOf(tx));
      await markRailSubmitted(deps.db, txId, receipt.providerReference, deps.now());
      if (!receipt.accepted) {
        await recordRailResult(deps, {
          txId,
          outcome: "FAILED",
          reason: "rejected by the payout rail",
          providerReference: receipt.providerReference,
        });
      }
    } catch (error) {
      const delay = Math.min(deps.config.railRetryMs * 2 ** Math.min(tx.railAttempts, 16), MAX_BACKOFF_MS);
      deps.logger.warn(
        { tx_id: txId, err: error, retry_in_ms: delay },
        "payout submission failed; will retry",
      );
      await markRailAttemptFailed(deps.db, txId, new Date(deps.now().getTime() + delay));
    }
  };
  const submit = async (txId: string): Promise<void> => {
    const tx = await findTransaction(deps.db, txId);
    if (tx?.status !== "PROCESSING" || tx.railSubmittedAt) return;
    await submitExecuted(tx);
  };
  return {
    submit,
    submitExecuted,
    async retryDue() {
      const due = await dueRailSubmissions(deps.db, deps.now(), 50);
      for (const txId of due) await submit(txId);
      return due.length;
    },
  };
}

function submissionOf(tx: StoredTransaction): PayoutSubmission {
  const d = tx.destination;
  const field = (name: string) => (typeof d[name] === "string" ? (d[name] as string) : "");
  return {
    txId: tx.txId,
    countryCode: tx.countryCode,
    currency: tx.currency,
    amount: tx.amount === undefined ? "" : toDecimalString(tx.amount),
    destinationType: field("destination_type"),
    paymentDestination: field("payment_destination"),
    paymentDestinationCode: field("payment_destination_code"),
  };
}
