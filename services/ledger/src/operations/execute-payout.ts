/**
 * executePayout: debits the partner once per transaction and moves it to PROCESSING, in one database
 * transaction with the status history, the outbox event and the idempotency record.
 *
 * Result codes in the precedence order of PAYOUT_REFUSAL_ORDER (domain/payout-execution.ts): the first
 * three are decided here, from the key and the locks; the stored ones by executionRefusal. A stored
 * outcome (success or refusal) is replayed for the same key and fingerprint.
 *
 * Three statements between BEGIN and COMMIT, each needing the one before:
 * 1. the key's advisory lock, tried only when the partner's transaction exists (NOT_FOUND comes first,
 *    and IN_USE is answered at once, never after waiting on a row lock);
 * 2. with the key held, a fresh snapshot: the key's live record (an expired one deleted), and when there is
 *    none, the transaction row lock, its history and — when it is PENDING — the balance row lock, in
 *    that order (the lock order of every movement);
 * 3. the write set: the stored refusal, or movement, entries, status, history, outbox event and the
 *    stored success together.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { Dec } from "@payouts/platform/money/decimal";
import { type Transaction, TransactionSchema } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { LedgerFailure, notFound } from "../domain/ledger-failure.js";
import {
  checkIdempotencyKey,
  executionRefusal,
  keyInUse,
  keyReused,
  keyVerdict,
} from "../domain/payout-execution.js";
import { payoutMovement, payoutTotal } from "../domain/posting-rules.js";
import { toTransactionMessage } from "../proto/transaction-message.js";
import {
  addKey,
  addLiveKey,
  type KeyRow,
  type KeyScope,
  keyFromRow,
  type StoredKey,
  tryLockKey,
} from "../store/idempotency-store.js";
import {
  addLockedTransaction,
  addTransactionExists,
  type LockedRow,
  lockedFromRow,
} from "../store/locked-transaction-store.js";
import { Statement } from "../store/statement.js";
import type { StoredTransaction, TxRow } from "../store/transaction-store.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { addTransition, TRANSITION_RESULT, transitionApplied } from "./transition.js";

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
  /** The payout as committed by this call (PROCESSING, not yet submitted); absent on replays. */
  readonly executed?: StoredTransaction;
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
    const found = new Statement();
    const lock = await tryLockKey(q, scope, found, addTransactionExists(found, input.txId, input.partnerId));
    if (lock === "condition-false") throw notFound(input.txId);
    if (lock === "in-use") throw keyInUse();

    const read = new Statement();
    const keyColumns = addLiveKey(read, scope, now);
    const txColumns = addLockedTransaction(read, input.txId, {
      partnerId: input.partnerId,
      balanceIn: ["PENDING"],
      unless: "k",
    });
    const res = await read.run<LockedRow & Partial<KeyRow>>(
      q,
      `SELECT ${keyColumns}, ${txColumns} FROM (SELECT 1) AS one LEFT JOIN k ON true LEFT JOIN t ON true`,
    );
    const stored = keyFromRow(res.rows[0]);
    if (keyVerdict(stored, input.fingerprint) === "reused") throw keyReused();
    if (stored) return replayOf(stored);
    const locked = lockedFromRow(res.rows[0]);
    if (!locked) throw notFound(input.txId);

    const { tx } = locked;
    const refusal = executionRefusal(tx, locked.balance ?? new Dec(0), now);
    const record = (outcome: StoredKey["outcome"]): StoredKey => ({
      fingerprint: input.fingerprint,
      subject: { txId: tx.txId },
      requestId: input.requestId,
      outcome,
    });
    const expiresAt = new Date(now.getTime() + deps.config.idempotencyKeyTtlMs);
    const write = new Statement();
    if (refusal || !tx.quote) {
      const failure = refusal ?? new LedgerFailure("QUOTE_REQUIRED", "call getQuotation first");
      const field = failure.field ?? "";
      addKey(
        write,
        scope,
        record({ state: "failed", reason: failure.reason, message: failure.message, field }),
        now,
        expiresAt,
      );
      await write.run(q, "SELECT 1");
      return { refused: failure };
    }
    const executed = addTransition(write, locked, {
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
    const snapshot = toTransactionMessage(executed.tx, executed.history);
    addKey(
      write,
      scope,
      record({ state: "succeeded", response: toBinary(TransactionSchema, snapshot) }),
      now,
      expiresAt,
    );
    const written = await write.run<TxRow>(q, TRANSITION_RESULT);
    const committed = transitionApplied(written.rows, `executePayout ${tx.txId}`);
    return { accepted: { transaction: snapshot, replayed: false, executed: committed } };
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
