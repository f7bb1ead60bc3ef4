/**
 * The rail's bookkeeping on ledger.transactions: which PROCESSING payouts are due for (another) submission
 * or overdue, and the record of each attempt. None of it changes a transaction's status.
 */
import type { Queryable } from "@payouts/platform/database/database";

/** PROCESSING transactions the rail has not acknowledged and whose next attempt is due. */
export async function dueRailSubmissions(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const res = await q.query<{ tx_id: string }>(
    `SELECT tx_id FROM ledger.transactions
      WHERE status = 'PROCESSING' AND rail_submitted_at IS NULL AND next_rail_attempt_at <= $1
      ORDER BY next_rail_attempt_at LIMIT $2`,
    [now, limit],
  );
  return res.rows.map((r) => r.tx_id);
}

/**
 * PROCESSING transactions the rail never acknowledged that entered PROCESSING at or before `enteredBefore`,
 * oldest first. A PROCESSING row's updated_at is the moment it entered PROCESSING: the rail bookkeeping
 * (markRailSubmitted, markRailAttemptFailed) deliberately leaves it alone.
 */
export async function overdueRailSubmissions(
  q: Queryable,
  enteredBefore: Date,
  limit: number,
): Promise<string[]> {
  const res = await q.query<{ tx_id: string }>(
    `SELECT tx_id FROM ledger.transactions
      WHERE status = 'PROCESSING' AND rail_submitted_at IS NULL AND updated_at <= $1
      ORDER BY updated_at, tx_id LIMIT $2`,
    [enteredBefore, limit],
  );
  return res.rows.map((r) => r.tx_id);
}

export async function markRailSubmitted(
  q: Queryable,
  txId: string,
  providerReference: string,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE ledger.transactions
        SET rail_submitted_at = COALESCE(rail_submitted_at, $3),
            provider_reference = CASE WHEN provider_reference = '' THEN $2 ELSE provider_reference END,
            rail_attempts = rail_attempts + 1
      WHERE tx_id = $1`,
    [txId, providerReference, now],
  );
}

export async function markRailAttemptFailed(q: Queryable, txId: string, nextAttemptAt: Date): Promise<void> {
  await q.query(
    `UPDATE ledger.transactions
        SET rail_attempts = rail_attempts + 1, next_rail_attempt_at = $2
      WHERE tx_id = $1 AND rail_submitted_at IS NULL`,
    [txId, nextAttemptAt],
  );
}
