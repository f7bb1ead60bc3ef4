/**
 * The PROCESSING timeout: a payout the rail has not acknowledged within PROCESSING_TIMEOUT_MS of its
 * execution is failed with the reversal of its debit, so that a submission that never succeeds does not
 * keep the partner's money forever. Only after the rail confirms it will never pay it (CancelPayout, in
 * failProcessingPayout): a payout the rail accepted is left to the rail's verdict, and while the rail does
 * not answer nothing is failed (asked again on the next pass).
 */
import { LedgerFailure } from "../domain/ledger-failure.js";
import { failProcessingPayout } from "../operations/fail-processing-payout.js";
import type { LedgerDeps } from "../operations/ledger-deps.js";
import { overdueRailSubmissions } from "../store/rail-submission-store.js";
import type { PayoutRail } from "./payout-rail.js";

const BATCH = 50;

export const PROCESSING_TIMEOUT_REASON = "not accepted by the payout rail in time";

/** One pass; returns how many payouts it failed. */
export async function failOverdueSubmissions(
  deps: LedgerDeps,
  rail: PayoutRail | undefined,
): Promise<number> {
  if (!rail) return 0;
  const enteredBefore = new Date(deps.now().getTime() - deps.config.processingTimeoutMs);
  const overdue = await overdueRailSubmissions(deps.db, enteredBefore, BATCH);
  let failed = 0;
  for (const txId of overdue) {
    try {
      await failProcessingPayout(deps, rail, { txId, reason: PROCESSING_TIMEOUT_REASON, force: false });
      failed++;
      deps.logger.warn({ tx_id: txId }, "payout failed and reversed: the rail never accepted it in time");
    } catch (error) {
      if (!(error instanceof LedgerFailure)) throw error;
      // PAYOUT_ACCEPTED_BY_RAIL (now marked submitted) or TRANSACTION_NOT_PROCESSING (settled meanwhile):
      // not this job's to resolve. SERVICE_UNAVAILABLE: the rail is not answering, so the others would
      // only wait for the same deadline; the next pass asks again, oldest first.
      deps.logger.info({ tx_id: txId, reason: error.reason }, "overdue payout not failed");
      if (error.reason === "SERVICE_UNAVAILABLE") break;
    }
  }
  return failed;
}
