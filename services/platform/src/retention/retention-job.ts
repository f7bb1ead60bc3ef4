/**
 * Retention: deletes rows a service no longer needs, in small batches so no statement holds many row
 * locks or runs long, as a background loop of the service that owns the tables. Each rule names its table
 * (the metric label) and gives one DELETE of at most `$2` rows older than the cutoff `$1`, of the form
 *
 *   DELETE FROM t WHERE ctid IN (SELECT ctid FROM t WHERE <old and finished> LIMIT $2) AND <old and finished>
 *
 * (the condition is repeated outside so a row changed since the inner SELECT is re-checked, not deleted).
 * A rule runs batch after batch until a batch deletes fewer rows than asked. Rows deleted are counted on
 * `payouts.retention.deleted.rows{table}` (Prometheus `payouts_retention_deleted_rows_total`).
 */
import { createPeriodicTask, type PeriodicTask } from "../background/periodic-task.js";
import type { Queryable } from "../database/database.js";
import type { Logger } from "../logging/logger.js";
import { type Counter, payoutsMeter } from "../telemetry/payouts-meter.js";

export interface RetentionRule {
  /** Schema-qualified table, the metric's `table` label. */
  readonly table: string;
  /** Rows older than this are candidates; undefined switches the rule off. */
  readonly cutoff: (now: Date) => Date | undefined;
  /** The DELETE, with $1 = cutoff and $2 = batch size. */
  readonly deleteBatch: string;
}

export interface RetentionJobOptions {
  readonly name: string;
  readonly db: Queryable;
  readonly rules: readonly RetentionRule[];
  readonly batchSize: number;
  readonly intervalMs: number;
  readonly logger: Logger;
  readonly now: () => Date;
}

export interface RetentionJob extends PeriodicTask {
  /** One full pass over every rule; rows deleted per table. */
  runOnce(): Promise<Record<string, number>>;
}

let deletedRows: Counter | undefined;

function deletedRowsCounter(): Counter {
  deletedRows ??= payoutsMeter().createCounter("payouts.retention.deleted.rows", {
    description: "Rows deleted by the retention jobs, by table",
  });
  return deletedRows;
}

export function createRetentionJob(options: RetentionJobOptions): RetentionJob {
  const counter = deletedRowsCounter();
  const runOnce = async (): Promise<Record<string, number>> => {
    const now = options.now();
    const deleted: Record<string, number> = {};
    for (const rule of options.rules) {
      const cutoff = rule.cutoff(now);
      if (cutoff === undefined) continue;
      deleted[rule.table] = await deleteInBatches(options.db, rule, cutoff, options.batchSize, (n) =>
        counter.add(n, { table: rule.table }),
      );
    }
    const total = Object.values(deleted).reduce((a, b) => a + b, 0);
    if (total > 0) options.logger.info({ deleted }, `${options.name}: old rows deleted`);
    return deleted;
  };
  const task = createPeriodicTask({
    name: options.name,
    intervalMs: options.intervalMs,
    logger: options.logger,
    run: async () => {
      await runOnce();
    },
  });
  return { ...task, runOnce };
}

async function deleteInBatches(
  db: Queryable,
  rule: RetentionRule,
  cutoff: Date,
  batchSize: number,
  count: (n: number) => void,
): Promise<number> {
  let total = 0;
  for (;;) {
    const res = await db.query(rule.deleteBatch, [cutoff, batchSize]);
    if (res.rowCount > 0) count(res.rowCount);
    total += res.rowCount;
    if (res.rowCount < batchSize) return total;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A cutoff `days` days before now; 0 days switches the rule off (keep forever). */
export function daysBefore(days: number): (now: Date) => Date | undefined {
  return (now) => (days === 0 ? undefined : new Date(now.getTime() - days * DAY_MS));
}
