/**
 * One reconciliation run of a rail and UTC day: read the ledger's payouts of the day, then the rail's
 * records of the day and of the day before, match them (domain/reconciliation-matching.ts) and store the
 * breaks. The ledger is read first so that a payout accepted while the run reads is seen by the rail's
 * side (and then looked up in the ledger by its tx_id) rather than reported missing at the rail.
 *
 * Idempotent and safe to run on two replicas at once: a break already stored for (rail, day, type, key) is
 * not opened again (see reconciliation-store.ts). A run whose rail does not answer is stored FAILED and
 * answered SERVICE_UNAVAILABLE.
 */
import { newId } from "@payouts/platform/ids";
import { addDays, type UtcDay } from "@payouts/platform/time/utc-day";
import { LedgerFailure } from "../domain/ledger-failure.js";
import { findBreaks } from "../domain/reconciliation-matching.js";
import type { SettlementSource } from "../rail/settlement-source.js";
import {
  completeRun,
  failRun,
  insertRun,
  openBreaks,
  payoutsByIds,
  payoutsSubmittedBetween,
  type ReconciliationRun,
} from "../store/reconciliation-store.js";
import type { LedgerDeps } from "./ledger-deps.js";

export async function runReconciliation(
  deps: Pick<LedgerDeps, "db" | "logger" | "now">,
  source: SettlementSource,
  day: UtcDay,
  startedBy: string,
): Promise<ReconciliationRun> {
  const { db } = deps;
  const runId = newId("rcn");
  await insertRun(db, { runId, rail: source.rail, day: day.day, startedBy, startedAt: deps.now() });

  let dayPayouts: Awaited<ReturnType<typeof payoutsSubmittedBetween>>;
  let railRecords: Awaited<ReturnType<SettlementSource["recordsOf"]>>;
  let previousDay: typeof railRecords;
  try {
    dayPayouts = await payoutsSubmittedBetween(db, day.start, day.end);
  } catch (error) {
    await failRun(db, runId, "the ledger's payouts were not read", deps.now()).catch(() => undefined);
    throw error;
  }
  try {
    railRecords = await source.recordsOf(day.day);
    previousDay = await source.recordsOf(addDays(day, -1).day);
  } catch (error) {
    deps.logger.warn(
      { err: error, rail: source.rail, day: day.day },
      "the rail's settlement records were not read",
    );
    await failRun(db, runId, "the rail did not answer with its settlement records", deps.now());
    throw new LedgerFailure(
      "SERVICE_UNAVAILABLE",
      "the rail did not answer with its settlement records; retry later",
    );
  }

  const known = new Set(dayPayouts.map((p) => p.txId));
  const named = [...new Set(railRecords.map((r) => r.txId))].filter((txId) => txId && !known.has(txId));
  const ledgerPayouts = [...dayPayouts, ...(await payoutsByIds(db, named))];
  const breaks = findBreaks({
    day,
    railRecords,
    ledgerPayouts,
    previousDayTxIds: new Set(previousDay.map((r) => r.txId)),
  });

  return db.transaction(async (tx) => {
    const at = deps.now();
    const opened = await openBreaks(
      tx,
      { runId, rail: source.rail, day: day.day, at },
      breaks.map((b) => ({ ...b, breakId: newId("brk") })),
    );
    return completeRun(
      tx,
      runId,
      {
        railRecords: railRecords.length,
        ledgerPayouts: dayPayouts.length,
        breaksFound: breaks.length,
        breaksOpened: opened,
      },
      at,
    );
  });
}
