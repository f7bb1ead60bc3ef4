/**
 * Unresolved reconciliation breaks by rail and type (`payouts.reconciliation.open_breaks`, exported to
 * Prometheus as payouts_reconciliation_open_breaks{rail,type}), counted from the ledger's table at each
 * scrape; the ledger's own rail reports 0 for every type without one, so the series exist from the start.
 * Every replica reports the same figures; alerts take max(). A failed query reports nothing rather than a
 * misleading zero.
 */
import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import { payoutsMeter } from "@payouts/platform/telemetry/payouts-meter";
import { BREAK_TYPES } from "../domain/break-types.js";
import { openBreakCounts } from "../store/reconciliation-store.js";

export interface OpenBreaksGauge {
  stop(): void;
}

export function startOpenBreaksGauge(db: Database, logger: Logger, rail: string): OpenBreaksGauge {
  const gauge = payoutsMeter().createObservableGauge("payouts.reconciliation.open_breaks", {
    description: "Reconciliation breaks against the rail not yet resolved by an operator, by rail and type",
  });
  const observe = async (observer: { observe(value: number, attributes: Record<string, string>): void }) => {
    try {
      const counts = new Map<string, { rail: string; type: string; count: number }>(
        BREAK_TYPES.map((type) => [`${rail}/${type}`, { rail, type, count: 0 }]),
      );
      for (const row of await openBreakCounts(db)) counts.set(`${row.rail}/${row.type}`, row);
      for (const row of counts.values()) observer.observe(row.count, { rail: row.rail, type: row.type });
    } catch (error) {
      logger.warn({ err: error }, "open reconciliation breaks not counted");
    }
  };
  gauge.addCallback(observe);
  return { stop: () => gauge.removeCallback(observe) };
}
