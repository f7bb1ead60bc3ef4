/**
 * executePayout: debits the partner once per transaction and moves it to PROCESSING, in one database
 * transaction with the status history, the outbox event and the idempotency record.
 *
 * Result codes in precedence order (see domain/payout-execution.ts): TRANSACTION_NOT_FOUND,
 * IDEMPOTENCY_KEY_IN_USE, IDEMPOTENCY_KEY_REUSED, TRANSACTION_NOT_PENDING, QUOTE_REQUIRED, QUOTE_EXPIRED,
 * INSUFFICIENT_FUNDS. From TRANSACTION_NOT_PENDING on, the outcome (success or refusal) is stored under
 * the key and replayed for the same key and fingerprint.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { type Transaction, TransactionSchema } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { LedgerFailure } from "../domain/ledger-failure.js";
import { checkIdempotencyKey, executionRefusal } from "../domain/payout-execution.js";
import { payoutMovement, payoutTotal } from "../domain/posting-rules.js";
import { toTransactionMessage } from "../proto/transaction-message.js";
import { type KeyScope, type StoredKey, storeKey } from "../store/idempotency-store.js";
import { lockBalance } from "../store/ledger-store.js";
import { findTransaction, listHistory } from "../store/transaction-store.js";
import { notFound } from "./attach-quote.js";
import { claimIdempotencyKey } from "./claim-idempotency-key.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { transition } from "./transition.js";

export const EXECUTE_PAYOUT_ROUTE = "POST /executePayout";

export interface ExecutePayoutInput {
  readonly partnerId: string;
  readonly txId: string;
  readonly idempotencyKey: string;
  readonly fingerprint: string;
  readonly requestId: string;
  readonly traceparent?: string | undefined;
}

export interface ExecutePayoutResult {
  /** The transaction as it was when the payout was accepted (the same bytes on every replay). */
  readonly transaction: Transaction;
  readonly replayed: boolean;
}

type Outcome = { readonly accepted: ExecutePayoutResult } | { readonly refused: LedgerFailure };

export async function executePayout(
  deps: LedgerDeps,
  input: ExecutePayoutInput,
): Promise<ExecutePayoutResult> {
  checkIdempotencyKey(input.idempotencyKey, input.fingerprint);
  const scope: KeyScope = {
    partnerId: input.partnerId,
    route: EXECUTE_PAYOUT_ROUTE,
    key: input.idempotencyKey,
  };
  const now = deps.now();
  const outcome = await deps.db.transaction(async (q): Promise<Outcome> => {
    if (!(await findTransaction(q, input.txId, { partnerId: input.partnerId }))) throw notFound(input.txId);
    const stored = await claimIdempotencyKey(q, scope, input.fingerprint, now);
    if (stored) return replayOf(stored);

    const tx = await findTransaction(q, input.txId, { partnerId: input.partnerId, forUpdate: true });
    if (!tx) throw notFound(input.txId);
    const balance = await lockBalance(q, tx.partnerId);
    const refusal = executionRefusal(tx, balance, now);
    const record = (outcome: StoredKey["outcome"]): StoredKey => ({
      fingerprint: input.fingerprint,
      subject: { txId: tx.txId },
      requestId: input.requestId,
      outcome,
    });
    const expiresAt = new Date(now.getTime() + deps.config.idempotencyKeyTtlMs);
    if (refusal || !tx.quote) {
      const failure = refusal ?? new LedgerFailure("QUOTE_REQUIRED", "call getQuotation first");
      const field = failure.field ?? "";
      await storeKey(
        q,
        scope,
        record({ state: "failed", reason: failure.reason, message: failure.message, field }),
        now,
        expiresAt,
      );
      return { refused: failure };
    }
    const executed = await transition(q, tx, {
      to: "PROCESSING",
      reason: "executePayout",
      now,
      movement: payoutMovement(tx.quote),
      changes: {
        debitedUsd: payoutTotal(tx.quote),
        executionKey: input.idempotencyKey,
        // The handler submits right after commit; the retry loop only steps in if that attempt is lost.
        nextRailAttemptAt: new Date(now.getTime() + deps.config.railSubmitTimeoutMs * 2),
      },
      traceparent: input.traceparent,
    });
    const snapshot = toTransactionMessage(executed, await listHistory(q, tx.txId));
    await storeKey(
      q,
      scope,
      record({ state: "succeeded", response: toBinary(TransactionSchema, snapshot) }),
      now,
      expiresAt,
    );
    return { accepted: { transaction: snapshot, replayed: false } };
  });
  if ("refused" in outcome) throw outcome.refused;
  deps.committed();
  return outcome.accepted;
}

function replayOf(stored: StoredKey): Outcome {
  const o = stored.outcome;
  if (o.state === "succeeded") {
    return { accepted: { transaction: fromBinary(TransactionSchema, o.response), replayed: true } };
  }
  const failure = new LedgerFailure(o.reason as LedgerFailure["reason"], o.message, o.field || undefined);
  failure.metadata = { replayed: "true", request_id: stored.requestId };
  return { refused: failure };
}
