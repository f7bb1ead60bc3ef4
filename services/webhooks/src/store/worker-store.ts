/**
 * `webhooks.workers`: the dispatcher processes that are alive. A process renews its row about every second;
 * a claim whose process stopped renewing is released by any other process (delivery-queue-store.ts).
 * Times are the database's clock (statement_timestamp), never a host's.
 */
import type { Queryable } from "@payouts/platform/database/database";

/** Registers or renews a worker: alive for `ttlMs` from now (database time). */
export async function renewWorker(db: Queryable, workerId: string, ttlMs: number): Promise<void> {
  await db.query(
    `INSERT INTO webhooks.workers (worker_id, alive_until)
     VALUES ($1, statement_timestamp() + $2 * interval '1 millisecond')
     ON CONFLICT (worker_id) DO UPDATE SET alive_until = EXCLUDED.alive_until`,
    [workerId, ttlMs],
  );
}

/** A worker that stopped cleanly: anything it still held is free at once. */
export async function removeWorker(db: Queryable, workerId: string): Promise<void> {
  await db.query("DELETE FROM webhooks.workers WHERE worker_id = $1", [workerId]);
}

/** Rows of workers dead for an hour: nothing refers to them any more (their claims were released). */
export async function pruneDeadWorkers(db: Queryable): Promise<number> {
  const res = await db.query(
    "DELETE FROM webhooks.workers WHERE alive_until < statement_timestamp() - interval '1 hour'",
  );
  return res.rowCount;
}
