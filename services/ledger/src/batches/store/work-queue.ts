/**
 * The batch work queue (ledger.batch_work): one row per item still to validate or to pay. claimWork leases
 * due rows with FOR UPDATE SKIP LOCKED, so concurrent workers never take the same row; the row is deleted by
 * the database transaction that does its work (finishWork), or pushed back with a backoff (retryWork). A
 * worker that dies holding a lease leaves the row to be claimed again once the lease expires.
 */
import type { Queryable } from "@payouts/platform/database/database";

export type WorkKind = "validate" | "execute";

export interface WorkRow {
  readonly batchId: string;
  readonly itemRef: string;
  readonly kind: WorkKind;
  readonly version: number;
  readonly attempts: number;
}

export async function claimWork(
  q: Queryable,
  kind: WorkKind,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<WorkRow[]> {
  const res = await q.query<{ batch_id: string; item_ref: string; version: number; attempts: number }>(
    `UPDATE ledger.batch_work w
        SET lease_until = $2::timestamptz + make_interval(secs => $3::float8 / 1000), attempts = w.attempts + 1
       FROM (SELECT batch_id, item_ref, kind FROM ledger.batch_work
              WHERE kind = $1 AND available_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
              ORDER BY available_at LIMIT $4 FOR UPDATE SKIP LOCKED) due
      WHERE w.batch_id = due.batch_id AND w.item_ref = due.item_ref AND w.kind = due.kind
      RETURNING w.batch_id, w.item_ref, w.version, w.attempts`,
    [kind, now, leaseMs, limit],
  );
  return res.rows.map((r) => ({
    batchId: r.batch_id,
    itemRef: r.item_ref,
    kind,
    version: r.version,
    attempts: r.attempts,
  }));
}

/** The work is done: its row goes, in the caller's transaction (only the claimed version's, for validation). */
export async function finishWork(
  q: Queryable,
  w: Pick<WorkRow, "batchId" | "itemRef" | "kind" | "version">,
): Promise<void> {
  await q.query(
    "DELETE FROM ledger.batch_work WHERE batch_id = $1 AND item_ref = $2 AND kind = $3 AND version = $4",
    [w.batchId, w.itemRef, w.kind, w.version],
  );
}

/** The work could not be done now (a dependency did not answer): due again after `delayMs`. */
export async function retryWork(
  q: Queryable,
  w: Pick<WorkRow, "batchId" | "itemRef" | "kind">,
  now: Date,
  delayMs: number,
  why: string,
): Promise<void> {
  await q.query(
    `UPDATE ledger.batch_work SET lease_until = NULL, available_at = $4, last_error = left($5, 500)
      WHERE batch_id = $1 AND item_ref = $2 AND kind = $3`,
    [w.batchId, w.itemRef, w.kind, new Date(now.getTime() + delayMs), why],
  );
}

/** Queues the payout of each item given (one row per item; a row already queued stays as is). */
export async function enqueueExecution(
  q: Queryable,
  batchId: string,
  itemRefs: readonly string[],
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO ledger.batch_work (batch_id, item_ref, kind, available_at)
     SELECT $1, r, 'execute', $3 FROM unnest($2::text[]) AS r
     ON CONFLICT (batch_id, item_ref, kind) DO NOTHING`,
    [batchId, [...itemRefs], now],
  );
}

/** Drops the batch's queued work (cancelled or expired batches). */
export async function dropWork(q: Queryable, batchId: string): Promise<void> {
  await q.query("DELETE FROM ledger.batch_work WHERE batch_id = $1", [batchId]);
}

/** Whether any validation of the batch is still queued. */
export async function validationPending(q: Queryable, batchId: string): Promise<boolean> {
  const res = await q.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM ledger.batch_work WHERE batch_id = $1 AND kind = 'validate'",
    [batchId],
  );
  return (res.rows[0]?.n ?? 0) > 0;
}
