/**
 * The sweeper's work: PENDING transactions never executed within PENDING_TTL_MS become EXPIRED (no money
 * moved, so no movement), except the items of a funded batch. Expired idempotency keys are deleted by the
 * retention job.
 */
import type { Queryable } from "@payouts/platform/database/database";

import { lockTransaction } from "../store/locked-transaction-store.js";
import { duePendingExpiries } from "../store/transaction-store.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { transition } from "./transition.js";

const BATCH = 100;

/** Expires what is due; returns how many transactions it expired. */
export async function expirePending(deps: LedgerDeps): Promise<number> {
  const now = deps.now();
  const due = await duePendingExpiries(deps.db, now, BATCH);
  let expired = 0;
  for (const txId of due) {
    const changed = await deps.db.transaction(async (q) => {
      const locked = await lockTransaction(q, txId);
      const tx = locked?.tx;
      // Executed or expired by someone else since the scan: nothing to do.
      if (!locked || tx?.status !== "PENDING" || tx.pendingExpiresAt.getTime() > now.getTime()) return false;
      // A batch item's transaction waits for its batch: once funded (the approval holds the batch row while it
      // funds, so this read waits for it), the fan-out pays it whatever the time.
      if (tx.batchItem && (await batchFunded(q, tx.batchItem.batchId))) return false;
      await transition(q, locked, { to: "EXPIRED", reason: "not executed within the pending TTL", now });
      return true;
    });
    if (changed) expired++;
  }
  if (expired > 0) deps.committed();
  return expired;
}

/** Whether the batch is funded, read under a share lock on its row (lock order: transaction, then batch). */
async function batchFunded(q: Queryable, batchId: string): Promise<boolean> {
  const res = await q.query<{ funded: boolean }>(
    "SELECT funded_at IS NOT NULL AS funded FROM ledger.batches WHERE batch_id = $1 FOR SHARE",
    [batchId],
  );
  return res.rows[0]?.funded === true;
}
