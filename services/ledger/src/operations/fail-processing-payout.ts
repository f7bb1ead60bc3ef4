/**
 * Fails a PROCESSING payout that the rail never paid: PROCESSING → FAILED with the reversal of the debit
 * (the one failure path, failProcessing), for the timeout job (PROCESSING_TIMEOUT_MS) and for operators
 * (FailTransaction).
 *
 * A payout the rail has may still be paid, and reversing its debit then would pay it twice. So the rail is
 * asked first (CancelPayout): only a rail that confirms it will never pay the payout lets the ledger fail
 * it. An operator may override the answer (`force`) once the provider confirmed it out of band, e.g. when
 * the rail is gone for good; the rail is still asked to cancel first, so that a submission still on its way
 * to the rail is refused when it arrives instead of being paid after the debit was reversed.
 */
import { LedgerFailure, notFound } from "../domain/ledger-failure.js";
import type { PayoutRail } from "../rail/payout-rail.js";
import { lockTransaction } from "../store/locked-transaction-store.js";
import { markRailSubmitted } from "../store/rail-submission-store.js";
import { findTransaction, type StoredTransaction } from "../store/transaction-store.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { failProcessing } from "./record-rail-result.js";
import type { ChangedTransaction } from "./transition.js";

export interface FailPayoutInput {
  readonly txId: string;
  readonly reason: string;
  readonly force: boolean;
  readonly traceparent?: string | undefined;
}

export async function failProcessingPayout(
  deps: LedgerDeps,
  rail: PayoutRail | undefined,
  input: FailPayoutInput,
): Promise<ChangedTransaction> {
  const seen = await findTransaction(deps.db, input.txId);
  if (!seen) throw notFound(input.txId);
  if (seen.status !== "PROCESSING") throw notProcessing(seen);
  if (input.force) await cancelAtRailIfItAnswers(deps, rail, input);
  else await confirmCancelledByRail(deps, rail, input);
  const failed = await deps.db.transaction(async (q) => {
    const locked = await lockTransaction(q, input.txId, { balanceIn: ["PROCESSING"] });
    if (!locked) throw notFound(input.txId);
    // Settled or failed by a callback meanwhile: the rail's verdict stands.
    if (locked.tx.status !== "PROCESSING") throw notProcessing(locked.tx);
    return failProcessing(q, locked, {
      reason: input.reason,
      now: deps.now(),
      traceparent: input.traceparent,
    });
  });
  deps.committed();
  return failed;
}

async function confirmCancelledByRail(
  deps: LedgerDeps,
  rail: PayoutRail | undefined,
  input: FailPayoutInput,
): Promise<void> {
  if (!rail) {
    throw new LedgerFailure(
      "SERVICE_UNAVAILABLE",
      "no payout rail is configured to confirm the cancellation; fail with force once the provider confirmed it",
    );
  }
  let verdict: Awaited<ReturnType<PayoutRail["cancel"]>>;
  try {
    verdict = await rail.cancel(input.txId, input.reason);
  } catch (error) {
    deps.logger.warn({ tx_id: input.txId, err: error }, "the payout rail did not answer a cancellation");
    throw new LedgerFailure(
      "SERVICE_UNAVAILABLE",
      "the payout rail did not answer whether it will pay this payout; retry later",
    );
  }
  if (!verdict.cancelled) {
    // The rail has the payout after all (an acknowledgement lost on the way): stop resubmitting it and
    // wait for the rail's verdict.
    await markRailSubmitted(deps.db, input.txId, verdict.providerReference, deps.now());
    throw new LedgerFailure(
      "PAYOUT_ACCEPTED_BY_RAIL",
      "the payout rail accepted this payout and may still pay it; its verdict decides (settle it at the rail)",
    );
  }
}

/** A forced failure still leaves a cancellation at the rail when the rail answers; it never waits on one. */
async function cancelAtRailIfItAnswers(
  deps: LedgerDeps,
  rail: PayoutRail | undefined,
  input: FailPayoutInput,
): Promise<void> {
  if (!rail) return;
  try {
    const verdict = await rail.cancel(input.txId, input.reason);
    if (!verdict.cancelled) {
      deps.logger.warn(
        { tx_id: input.txId, provider_reference: verdict.providerReference },
        "forced failure of a payout the rail says it accepted: the provider's out-of-band answer overrides it",
      );
    }
  } catch (error) {
    deps.logger.warn({ tx_id: input.txId, err: error }, "forced failure: the payout rail did not answer");
  }
}

function notProcessing(tx: StoredTransaction): LedgerFailure {
  return new LedgerFailure(
    "TRANSACTION_NOT_PROCESSING",
    `transaction ${tx.txId} is ${tx.status}, not PROCESSING`,
  );
}
