/**
 * The sweeper's work: PENDING transactions never executed within PENDING_TTL_MS become EXPIRED (no money
 * moved, so no movement). Expired idempotency keys are deleted by the retention job.
 */

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
      await transition(q, locked, { to: "EXPIRED", reason: "not executed within the pending TTL", now });
      return true;
    });
    if (changed) expired++;
  }
  if (expired > 0) deps.committed();
  return expired;
}
