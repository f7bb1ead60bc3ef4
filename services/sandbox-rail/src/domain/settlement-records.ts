/**
 * The sandbox rail's settlement records of a day: one per payout it accepted that day, and the
 * discrepancies an operator planted into them (sandbox only), applied in the order they were planted.
 * Pure: the store reads the submissions and discrepancies, this decides what the rail reports.
 */
import type { RailOutcome } from "./sandbox-outcome.js";

export const SETTLEMENT_STATUSES = ["PAID", "RETURNED", "PENDING"] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

export const DISCREPANCY_KINDS = [
  "DROP_RECORD",
  "CHANGE_AMOUNT",
  "ADD_UNKNOWN_RECORD",
  "DUPLICATE_RECORD",
  "FLIP_STATUS",
] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

export function isDiscrepancyKind(value: string): value is DiscrepancyKind {
  return (DISCREPANCY_KINDS as readonly string[]).includes(value);
}

export interface SettlementRecord {
  readonly railReference: string;
  readonly txId: string;
  readonly amount: string;
  readonly currency: string;
  readonly status: SettlementStatus;
  readonly settledAt: Date | undefined;
  readonly acceptedAt: Date;
}

/** What the rail did with one accepted payout. */
export interface AcceptedPayout {
  readonly txId: string;
  readonly providerReference: string;
  readonly amount: string;
  readonly currency: string;
  readonly outcome: RailOutcome;
  readonly deliveredAt: Date | undefined;
  readonly acceptedAt: Date;
}

export interface Discrepancy {
  readonly discrepancyId: string;
  readonly kind: DiscrepancyKind;
  readonly txId: string;
  readonly amount: string;
  readonly currency: string;
  readonly createdAt: Date;
}

/** A payout's record: its verdict once the callback reported it, PENDING before. */
export function recordOf(p: AcceptedPayout): SettlementRecord {
  const status: SettlementStatus = !p.deliveredAt ? "PENDING" : p.outcome === "SUCCESS" ? "PAID" : "RETURNED";
  return {
    railReference: p.providerReference,
    txId: p.txId,
    amount: p.amount,
    currency: p.currency,
    status,
    settledAt: p.deliveredAt,
    acceptedAt: p.acceptedAt,
  };
}

/**
 * The day's records after the discrepancies. A discrepancy naming a payout the day does not hold changes
 * nothing (except ADD_UNKNOWN_RECORD, which needs none). FLIP_STATUS turns PAID into RETURNED and anything
 * else into PAID.
 */
export function applyDiscrepancies(
  records: readonly SettlementRecord[],
  discrepancies: readonly Discrepancy[],
): SettlementRecord[] {
  let out = [...records];
  for (const d of discrepancies) {
    switch (d.kind) {
      case "DROP_RECORD":
        out = out.filter((r) => r.txId !== d.txId);
        break;
      case "CHANGE_AMOUNT":
        out = out.map((r) => (r.txId === d.txId ? { ...r, amount: d.amount } : r));
        break;
      case "FLIP_STATUS":
        out = out.map((r) =>
          r.txId === d.txId ? { ...r, status: r.status === "PAID" ? "RETURNED" : "PAID" } : r,
        );
        break;
      case "DUPLICATE_RECORD": {
        const original = out.find((r) => r.txId === d.txId);
        if (original) out.push({ ...original });
        break;
      }
      case "ADD_UNKNOWN_RECORD":
        out.push({
          railReference: `sbx_unknown_${d.discrepancyId}`,
          txId: d.txId,
          amount: d.amount || "1",
          currency: d.currency || "USD",
          status: "PAID",
          settledAt: d.createdAt,
          acceptedAt: d.createdAt,
        });
        break;
    }
  }
  return out;
}
