/**
 * The rail's verdict on a submitted payout. PROCESSING → SUCCESS settles the in-flight total into
 * settled + fees; PROCESSING → FAILED reverses it to the partner's balance. A verdict already recorded is
 * a no-op (changed = false), so duplicate callbacks are harmless.
 */
import type { Queryable } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import { invalidField, LedgerFailure, notFound } from "../domain/ledger-failure.js";
import { reversalMovement, settlementMovement } from "../domain/posting-rules.js";
import type { TxStatus } from "../domain/transaction-status.js";
import { type LockedTransaction, lockTransaction } from "../store/locked-transaction-store.js";
import type { StoredTransaction } from "../store/transaction-store.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { type ChangedTransaction, transition } from "./transition.js";

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
  /** The transaction's whole status history, as of this result. */
  readonly history: ChangedTransaction["history"];
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
    const locked = await lockTransaction(q, input.txId, { balanceIn: ["PROCESSING"] });
    if (!locked) throw notFound(input.txId);
    const { tx } = locked;
    if (tx.status !== "PROCESSING") return unchanged(deps.logger, locked, outcome);
    const quote = tx.quote;
    if (!quote) throw new Error(`PROCESSING transaction ${tx.txId} has no quote`);
    const providerReference = tx.providerReference === "" ? input.providerReference : undefined;
    const updated =
      outcome === "SUCCESS"
        ? await transition(q, locked, {
            to: "SUCCESS",
            reason: input.reason || "rail reported success",
            now,
            movement: settlementMovement(quote),
            changes: providerReference ? { providerReference } : {},
            traceparent: input.traceparent,
          })
        : await failProcessing(q, locked, {
            reason: input.reason || "rail reported failure",
            now,
            providerReference,
            traceparent: input.traceparent,
          });
    return { transaction: updated.tx, history: updated.history, changed: true };
  });
  if (result.changed) deps.committed();
  return result;
}

/**
 * PROCESSING → FAILED with the reversal of the whole debit back to the partner's balance: the one failure
 * path, for the rail's verdict and for payouts the ledger gives up on (fail-processing-payout.ts). It must
 * be PROCESSING and read with its row lock and the balance lock in this database transaction.
 */
export async function failProcessing(
  q: Queryable,
  locked: LockedTransaction,
  spec: {
    readonly reason: string;
    readonly now: Date;
    readonly providerReference?: string | undefined;
    readonly traceparent?: string | undefined;
  },
): Promise<ChangedTransaction> {
  const { tx } = locked;
  if (!tx.quote) throw new Error(`PROCESSING transaction ${tx.txId} has no quote`);
  return transition(q, locked, {
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

function unchanged(logger: Logger, locked: LockedTransaction, outcome: RailOutcome): RailResult {
  const { tx } = locked;
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
  return { transaction: tx, history: locked.history, changed: false };
}
