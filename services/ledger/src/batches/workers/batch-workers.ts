/**
 * The two batch workers over the durable queue (store/work-queue.ts), and the expiry of unapproved batches,
 * as periodic tasks woken right after a commit that queued work. Each pass claims up to `batchSize` due rows
 * and works them `concurrency` at a time.
 */
import { createPeriodicTask, type PeriodicTask } from "@payouts/platform/background/periodic-task";
import type { BatchDeps } from "../operations/batch-deps.js";
import { expireBatches } from "../operations/expire-batches.js";
import { claimWork, type WorkKind, type WorkRow } from "../store/work-queue.js";
import { executeItem } from "./execute-item.js";
import { validateItem } from "./validate-item.js";

export interface BatchWorkerSettings {
  readonly intervalMs: number;
  readonly leaseMs: number;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly callTimeoutMs: number;
}

/** One pass over due rows of `kind`; returns how many rows it worked. */
export async function runWorkPass(deps: BatchDeps, kind: WorkKind, s: BatchWorkerSettings): Promise<number> {
  const rows = await claimWork(deps.db, kind, deps.now(), s.leaseMs, s.batchSize);
  const work = (row: WorkRow) =>
    kind === "validate"
      ? validateItem(deps, row, s.callTimeoutMs)
      : executeItem(deps, row).then(() => undefined);
  for (let i = 0; i < rows.length; i += s.concurrency) {
    await Promise.all(
      rows.slice(i, i + s.concurrency).map((row) =>
        work(row).catch((error: unknown) => {
          // The lease expires and the row is claimed again: a bug or a database error loses nothing.
          deps.logger.error(
            { batch_id: row.batchId, item_ref: row.itemRef, kind, err: error },
            "batch work failed",
          );
        }),
      ),
    );
  }
  return rows.length;
}

export function createBatchWorkers(deps: BatchDeps, s: BatchWorkerSettings): PeriodicTask[] {
  const worker = (kind: WorkKind) => {
    const task = createPeriodicTask({
      name: `batch-${kind}`,
      intervalMs: s.intervalMs,
      logger: deps.logger,
      run: async () => {
        // One claim per run; a full claim wakes the task for the next at once. A stop so waits for one
        // pass, never for the whole queue.
        if ((await runWorkPass(deps, kind, s)) === s.batchSize) task.wake();
      },
    });
    return task;
  };
  const expiry = createPeriodicTask({
    name: "batch-expiry",
    intervalMs: Math.max(s.intervalMs, 1000),
    logger: deps.logger,
    run: async () => {
      await expireBatches(deps);
    },
  });
  return [worker("validate"), worker("execute"), expiry];
}
