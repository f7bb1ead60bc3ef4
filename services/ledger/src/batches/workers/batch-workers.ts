/**
 * The two batch workers over the durable queue (store/work-queue.ts), and the expiry of unapproved batches,
 * as periodic tasks woken right after a commit that queued work. Each pass claims up to `batchSize` due rows
 * and works them `concurrency` at a time.
 */
import { createPeriodicTask, type PeriodicTask } from "@payouts/platform/background/periodic-task";
import type { BatchDeps } from "../operations/batch-deps.js";
import { expireBatches } from "../operations/expire-batches.js";
import { claimWork, type WorkKind, type WorkRow } from "../store/work-queue.js";
import { executeItems } from "./execute-item.js";
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
  // Validation calls other services per item, `concurrency` at a time. Payment is database work that
  // queues on the batch row: each batch's items go in groups, one transaction a group, batches side by side.
  const units: WorkRow[][] =
    kind === "validate" ? rows.map((row) => [row]) : groupsByBatch(rows, EXECUTE_GROUP_SIZE);
  const work = (unit: WorkRow[]) =>
    kind === "validate"
      ? validateItem(deps, unit[0] as WorkRow, s.callTimeoutMs)
      : executeItems(deps, unit).then(() => undefined);
  for (let i = 0; i < units.length; i += s.concurrency) {
    await Promise.all(
      units.slice(i, i + s.concurrency).map((unit) =>
        work(unit).catch((error: unknown) => {
          // The lease expires and the rows are claimed again: a bug or a database error loses nothing.
          deps.logger.error(
            { batch_id: unit[0]?.batchId, items: unit.map((r) => r.itemRef), kind, err: error },
            "batch work failed",
          );
        }),
      ),
    );
  }
  return rows.length;
}

/** Items paid in one database transaction, at the most. */
const EXECUTE_GROUP_SIZE = 25;

/** `rows` split by batch, then into runs of at most `size`. */
export function groupsByBatch(rows: readonly WorkRow[], size: number): WorkRow[][] {
  const byBatch = new Map<string, WorkRow[]>();
  for (const row of rows) byBatch.set(row.batchId, [...(byBatch.get(row.batchId) ?? []), row]);
  return [...byBatch.values()].flatMap((items) => {
    const groups: WorkRow[][] = [];
    for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
    return groups;
  });
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
