/**
 * Operations refund a successful payout: SUCCESS → REFUNDED with a credit of the whole debited total
 * (amount and fees) back to the partner's balance. Anything else is TRANSACTION_NOT_REFUNDABLE.
 */
import { invalidField, LedgerFailure, notFound } from "../domain/ledger-failure.js";
import { refundMovement } from "../domain/posting-rules.js";
import { lockTransaction } from "../store/locked-transaction-store.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { type ChangedTransaction, transition } from "./transition.js";

const MAX_REASON_LENGTH = 500;

export async function refundTransaction(
  deps: LedgerDeps,
  txId: string,
  reason: string,
  traceparent?: string,
): Promise<ChangedTransaction> {
  if (reason.length > MAX_REASON_LENGTH)
    throw invalidField("reason", `must be at most ${MAX_REASON_LENGTH} characters`);
  const now = deps.now();
  const tx = await deps.db.transaction(async (q) => {
    const locked = await lockTransaction(q, txId, { balanceIn: ["SUCCESS"] });
    if (!locked) throw notFound(txId);
    const current = locked.tx;
    if (current.status !== "SUCCESS" || !current.quote) {
      throw new LedgerFailure(
        "TRANSACTION_NOT_REFUNDABLE",
        `only a SUCCESS transaction can be refunded; this one is ${current.status}`,
      );
    }
    return transition(q, locked, {
      to: "REFUNDED",
      reason: reason || "refunded by operations",
      now,
      movement: refundMovement(current.quote),
      changes: { refundReason: reason },
      traceparent,
    });
  });
  deps.committed();
  return tx;
}
