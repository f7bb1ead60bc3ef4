/**
 * The scheduled reconciliation: every interval, the previous UTC day (closed by then) is reconciled unless
 * a run of it already completed. Two replicas may both run a day at the same moment; the second then finds
 * every break already stored and opens nothing (run-reconciliation.ts).
 */
import { createPeriodicTask, type PeriodicTask } from "@payouts/platform/background/periodic-task";
import { addDays, utcDayOf } from "@payouts/platform/time/utc-day";
import type { LedgerDeps } from "../operations/ledger-deps.js";
import { runReconciliation } from "../operations/run-reconciliation.js";
import { hasCompletedRun } from "../store/reconciliation-store.js";
import type { SettlementSource } from "./settlement-source.js";

export const SCHEDULER = "scheduler";

export function createReconciliationScheduler(
  deps: Pick<LedgerDeps, "db" | "logger" | "now">,
  source: SettlementSource,
  intervalMs: number,
): PeriodicTask {
  return createPeriodicTask({
    name: "reconciliation",
    intervalMs,
    logger: deps.logger,
    run: async () => {
      const day = addDays(utcDayOf(deps.now()), -1);
      if (await hasCompletedRun(deps.db, source.rail, day.day)) return;
      const run = await runReconciliation(deps, source, day, SCHEDULER);
      deps.logger.info(
        { rail: run.rail, day: run.day, breaks_found: run.breaksFound, breaks_opened: run.breaksOpened },
        "reconciliation run completed",
      );
    },
  });
}
