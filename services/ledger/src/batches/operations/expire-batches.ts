/**
 * The expiry of unapproved batches: a VALIDATED or AWAITING_APPROVAL batch whose earliest quote expired
 * becomes EXPIRED and its unpaid items CANCELLED. Their PENDING transactions expire on their own, as any
 * PENDING transaction does.
 */
import type { LedgerDeps } from "../../operations/ledger-deps.js";
import { findBatch, moveItems, updateBatch } from "../store/batch-store.js";
import { dropWork } from "../store/work-queue.js";

/** One pass; returns how many batches expired. */
export async function expireBatches(deps: LedgerDeps, limit = 100): Promise<number> {
  const now = deps.now();
  const due = await deps.db.query<{ batch_id: string }>(
    `SELECT batch_id FROM ledger.batches
      WHERE status IN ('VALIDATED', 'AWAITING_APPROVAL') AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
    [now, limit],
  );
  let expired = 0;
  for (const { batch_id: batchId } of due.rows) {
    const done = await deps.db.transaction(async (q) => {
      const batch = await findBatch(q, batchId, "", true);
      const still =
        (batch?.status === "VALIDATED" || batch?.status === "AWAITING_APPROVAL") &&
        batch.expiresAt !== undefined &&
        batch.expiresAt.getTime() <= now.getTime();
      if (!still) return false;
      await updateBatch(q, batchId, "EXPIRED", now);
      await moveItems(q, batchId, ["VALIDATING", "PENDING"], "CANCELLED", now);
      await dropWork(q, batchId);
      return true;
    });
    if (done) expired += 1;
  }
  return expired;
}
