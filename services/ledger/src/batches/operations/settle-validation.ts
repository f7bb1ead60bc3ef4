/**
 * A VALIDATING batch becomes VALIDATED once no item is VALIDATING, in the transaction that settled its last
 * item. It then expires at its earliest payable quote's expiry, or, with nothing to pay, `idleTtlMs` after
 * validation (domain/batch-expiry.ts).
 */
import type { Queryable } from "@payouts/platform/database/database";
import { validatedExpiry } from "../domain/batch-expiry.js";
import { findBatch, hasValidatingItems, updateBatch } from "../store/batch-store.js";

/** The caller holds the batch's row lock. Returns whether the batch became VALIDATED. */
export async function settleValidation(
  q: Queryable,
  batchId: string,
  now: Date,
  idleTtlMs: number,
): Promise<boolean> {
  // Every item but the last stops here, at an index probe.
  if (await hasValidatingItems(q, batchId)) return false;
  const res = await q.query<{ validating: number; total: number; earliest: Date | null }>(
    `SELECT count(*) FILTER (WHERE i.status = 'VALIDATING')::int AS validating, count(*)::int AS total,
            min(t.quote_expires_at) FILTER (WHERE i.status = 'PENDING') AS earliest
       FROM ledger.batch_items i LEFT JOIN ledger.transactions t ON t.tx_id = i.tx_id
      WHERE i.batch_id = $1`,
    [batchId],
  );
  const r = res.rows[0];
  if (!r || r.validating > 0) return false;
  const batch = await findBatch(q, batchId, "");
  if (batch?.status !== "VALIDATING") return false;
  if (r.total === 0) {
    await updateBatch(q, batchId, "DRAFT", now, { validatedAt: null, expiresAt: null });
    return false;
  }
  await updateBatch(q, batchId, "VALIDATED", now, {
    validatedAt: now,
    expiresAt: validatedExpiry(r.earliest, now, idleTtlMs),
  });
  return true;
}
