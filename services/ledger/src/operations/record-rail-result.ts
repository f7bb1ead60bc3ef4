/**
 * The rail's verdict on a submitted payout. PROCESSING → SUCCESS settles the in-flight total into
 * settled + fees; PROCESSING → FAILED reverses it to the partner's balance. A verdict already recorded is
 * a no-op (changed = false), so duplicate callbacks are harmless.
 */
import type { Queryable } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import { invalidField, LedgerFailure } from "../domain/ledger-failure.js";
import { reversalMovement, settlementMovement } from "../domain/posting-rules.js";
import type { TxStatus } from "../domain/transaction-status.js";
import { findTransaction, type StoredTransaction } from "../store/transaction-store.js";
import { notFound } from "./attach-quote.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { transition } from "./transition.js";

export type RailOutcome = "SUCCESS" | "FAILED";

export interface RailResultInput {
  readonly txId: string;
  readonly outcome: string;
  readonly reason: string;
  readonly providerReference: string;
  readonly traceparent?: string | undefined;
}

export interface RailResult {
  readonly transaction: StoredTransaction;
  readonly changed: boolean;
}

// Statuses in which each verdict has already been applied.
const ALREADY: Readonly<Record<RailOutcome, readonly TxStatus[]>> = {
  SUCCESS: ["SUCCESS", "REFUNDED"],
  FAILED: ["FAILED"],
};

export async function recordRailResult(deps: LedgerDeps, input: RailResultInput): Promise<RailResult> {
  const outcome = readOutcome(input.outcome);
  const now = deps.now();
  const result = await deps.db.transaction(async (q): Promise<RailResult> => {
    const tx = await findTransaction(q, input.txId, { forUpdate: true });
    if (!tx) throw notFound(input.txId);
    if (tx.status !== "PROCESSING") return unchanged(deps.logger, tx, outcome);
    const quote = tx.quote;
    if (!quote) throw new Error(`PROCESSING transaction ${tx.txId} has no quote`);
    const providerReference = tx.providerReference === "" ? input.providerReference : undefined;
    const updated =
      outcome === "SUCCESS"
        ? await transition(q, tx, {
            to: "SUCCESS",
            reason: input.reason || "rail reported success",
            now,
            movement: settlementMovement(quote),
            changes: providerReference ? { providerReference } : {},
            traceparent: input.traceparent,
          })
        : await failProcessing(q, tx, {
            reason: input.reason || "rail reported failure",
            now,
            providerReference,
            traceparent: input.traceparent,
          });
    return { transaction: updated, changed: true };
  });
  if (result.changed) deps.committed();
  return result;
}

/**
 * PROCESSING → FAILED with the reversal of the whole debit back to the partner's balance: the one failure
 * path, for the rail's verdict and for payouts the ledger gives up on (fail-processing-payout.ts). `tx` must
 * be PROCESSING and read with its row lock in this database transaction.
 */
export async function failProcessing(
  q: Queryable,
  tx: StoredTransaction,
  spec: {
    readonly reason: string;
    readonly now: Date;
    readonly providerReference?: string | undefined;
    readonly traceparent?: string | undefined;
  },
): Promise<StoredTransaction> {
  if (!tx.quote) throw new Error(`PROCESSING transaction ${tx.txId} has no quote`);
  return transition(q, tx, {
    to: "FAILED",
    reason: spec.reason,
    now: spec.now,
    movement: reversalMovement(tx.quote),
    changes: {
      failureReason: spec.reason,
      ...(spec.providerReference ? { providerReference: spec.providerReference } : {}),
    },
    traceparent: spec.traceparent,
  });
}

function readOutcome(outcome: string): RailOutcome {
  if (outcome === "SUCCESS" || outcome === "FAILED") return outcome;
  throw invalidField("outcome", "must be SUCCESS or FAILED");
}

function unchanged(logger: Logger, tx: StoredTransaction, outcome: RailOutcome): RailResult {
  if (tx.status === "PENDING" || tx.status === "EXPIRED") {
    throw new LedgerFailure("TRANSACTION_NOT_PROCESSING", `transaction ${tx.txId} was never executed`);
  }
  if (!ALREADY[outcome].includes(tx.status)) {
    // The rail contradicts a verdict it gave before. Money has already moved one way; moving it again
    // would be worse than a reconciliation by an operator, so the ledger keeps its state and says so.
    logger.error(
      { tx_id: tx.txId, status: tx.status, outcome },
      "rail result contradicts the recorded outcome; ignored, needs reconciliation",
    );
  }
  return { transaction: tx, changed: false };
}
