/** SQL of the settlement records: the payouts accepted in a time range and the planted discrepancies. */
import type { Queryable } from "@payouts/platform/database/database";
import type { RailOutcome } from "../domain/sandbox-outcome.js";
import type { AcceptedPayout, Discrepancy, DiscrepancyKind } from "../domain/settlement-records.js";

interface PayoutRow {
  tx_id: string;
  provider_reference: string;
  amount: string;
  currency: string;
  outcome: RailOutcome;
  delivered_at: Date | null;
  created_at: Date;
}

/** Payouts accepted (not cancelled) in [from, to), by acceptance time then tx_id. */
export async function acceptedPayouts(q: Queryable, from: Date, to: Date): Promise<AcceptedPayout[]> {
  const res = await q.query<PayoutRow>(
    `SELECT tx_id, provider_reference, amount, currency, outcome, delivered_at, created_at
       FROM rail.submissions
      WHERE created_at >= $1 AND created_at < $2 AND cancelled_at IS NULL
      ORDER BY created_at, tx_id`,
    [from, to],
  );
  return res.rows.map((r) => ({
    txId: r.tx_id,
    providerReference: r.provider_reference,
    amount: r.amount,
    currency: r.currency,
    outcome: r.outcome,
    deliveredAt: r.delivered_at ?? undefined,
    acceptedAt: r.created_at,
  }));
}

interface DiscrepancyRow {
  discrepancy_id: string;
  kind: DiscrepancyKind;
  tx_id: string;
  amount: string;
  currency: string;
  created_at: Date;
}

export async function discrepanciesOf(q: Queryable, day: string): Promise<Discrepancy[]> {
  const res = await q.query<DiscrepancyRow>(
    `SELECT discrepancy_id, kind, tx_id, amount, currency, created_at
       FROM rail.settlement_discrepancies WHERE day = $1 ORDER BY created_at, discrepancy_id`,
    [day],
  );
  return res.rows.map((r) => ({
    discrepancyId: r.discrepancy_id,
    kind: r.kind,
    txId: r.tx_id,
    amount: r.amount,
    currency: r.currency,
    createdAt: r.created_at,
  }));
}

export async function insertDiscrepancy(q: Queryable, day: string, d: Discrepancy): Promise<void> {
  await q.query(
    `INSERT INTO rail.settlement_discrepancies (discrepancy_id, day, kind, tx_id, amount, currency, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [d.discrepancyId, day, d.kind, d.txId, d.amount, d.currency, d.createdAt],
  );
}
