/**
 * The ledger's business metrics. Counted when the rows are written, inside the database transaction: a
 * transaction that then failed at COMMIT would be counted although nothing was stored, which only the
 * deferred balance check can cause, and only on a bug. Amounts are converted to floating point here, for
 * dashboards only; no money is ever computed from them.
 */
import { type Counter, payoutsMeter } from "@payouts/platform/telemetry/payouts-meter";
import type { Movement } from "../domain/posting-rules.js";

interface LedgerInstruments {
  readonly arrivals: Counter;
  readonly movements: Counter;
  readonly volume: Counter;
}

// Created on first use: instruments made before the process registered its meter provider are no-ops.
let instruments: LedgerInstruments | undefined;

function ledgerInstruments(): LedgerInstruments {
  const meter = payoutsMeter();
  instruments ??= {
    arrivals: meter.createCounter("payouts.ledger.transactions", {
      description: "Transactions arriving in a status, by corridor (destination country) and currency",
    }),
    movements: meter.createCounter("payouts.ledger.movements", {
      description: "Balance movements posted, by kind (credit, payout, settlement, reversal, refund)",
    }),
    volume: meter.createCounter("payouts.ledger.movement.volume.usd", {
      description: "USD moved by balance movements, by kind (sum of the movement's debits)",
    }),
  };
  return instruments;
}

export function countArrival(tx: { countryCode: string; currency: string; status: string }): void {
  ledgerInstruments().arrivals.add(1, { country: tx.countryCode, currency: tx.currency, status: tx.status });
}

export function countMovement(movement: Movement): void {
  const moved = movement.postings
    .filter((p) => p.amount.isPositive())
    .reduce((sum, p) => sum + p.amount.toNumber(), 0);
  const { movements, volume } = ledgerInstruments();
  movements.add(1, { kind: movement.kind });
  volume.add(moved, { kind: movement.kind });
}
