/**
 * Reconciliation of one rail and UTC day: the rail's settlement records against the ledger's payouts, as
 * typed breaks. Pure; the run (operations/run-reconciliation.ts) gathers the inputs and stores the breaks.
 *
 * The day of a payout is the UTC day the rail accepted it. The ledger notes `rail_submitted_at` only
 * after the rail's acknowledgement, so a payout accepted just before midnight can be noted by the ledger
 * just after it — never the other way round. Hence a ledger payout of the day is also matched against the
 * previous day's records, and a record of the day is matched against the ledger payout of its tx_id
 * whatever day the ledger noted.
 */
import { type Dec, parseDecimal } from "@payouts/platform/money/decimal";
import { BREAK_TYPES, type BreakType } from "./break-types.js";
import type { TxStatus } from "./transaction-status.js";

/** One line of the rail's settlement records. */
export interface RailRecord {
  readonly railReference: string;
  readonly txId: string;
  /** Decimal string, as the rail wrote it. */
  readonly amount: string;
  readonly currency: string;
  /** PAID, RETURNED or PENDING; anything else never matches a ledger status. */
  readonly status: string;
}

/** A payout as the ledger holds it. */
export interface LedgerPayout {
  readonly txId: string;
  readonly amount: Dec;
  readonly currency: string;
  readonly status: TxStatus;
  readonly providerReference: string;
  /** When the ledger noted the rail's acceptance; undefined while it has not. */
  readonly railSubmittedAt: Date | undefined;
}

export interface ReconciliationBreak {
  readonly type: BreakType;
  /**
   * What the break is about, unique per (rail, day, type): the tx_id, or for a record the ledger does not
   * know, the rail's reference (the tx_id it names may be wrong or empty).
   */
  readonly key: string;
  readonly txId: string;
  readonly railReference: string;
  readonly ledgerAmount: string | undefined;
  readonly railAmount: string | undefined;
  readonly currency: string;
  readonly ledgerStatus: string;
  readonly railStatus: string;
  readonly detail: string;
}

/** The reconciled day: [start, end), midnight to midnight UTC (`@payouts/platform/time/utc-day`). */
export interface DaySpan {
  readonly start: Date;
  readonly end: Date;
}

export interface ReconciliationInput {
  readonly day: DaySpan;
  /** The rail's records of the day, duplicates included. */
  readonly railRecords: readonly RailRecord[];
  /** The ledger's payouts noted as accepted on the day, and those the day's records name. */
  readonly ledgerPayouts: readonly LedgerPayout[];
  /** The tx_ids of the previous day's records (a payout accepted just before midnight). */
  readonly previousDayTxIds: ReadonlySet<string>;
}

/** The ledger statuses each rail status agrees with. */
const AGREEING_STATUSES: Readonly<Record<string, readonly TxStatus[]>> = {
  PAID: ["SUCCESS", "REFUNDED"],
  RETURNED: ["FAILED"],
  PENDING: ["PROCESSING"],
};

export function statusesAgree(railStatus: string, ledgerStatus: TxStatus): boolean {
  return AGREEING_STATUSES[railStatus]?.includes(ledgerStatus) ?? false;
}

/** The breaks of the day, in a stable order (by type as listed in BREAK_TYPES, then key). */
export function findBreaks(input: ReconciliationInput): ReconciliationBreak[] {
  const ledger = new Map(input.ledgerPayouts.map((p) => [p.txId, p]));
  const byTx = new Map<string, RailRecord[]>();
  const breaks: ReconciliationBreak[] = [];

  for (const record of input.railRecords) {
    const payout = record.txId ? ledger.get(record.txId) : undefined;
    if (!payout) {
      breaks.push({
        ...railSide(record),
        type: "missing_in_ledger",
        key: record.railReference || record.txId,
        detail: record.txId ? `the ledger has no payout ${record.txId}` : "the record names no transaction",
      });
      continue;
    }
    const seen = byTx.get(record.txId);
    if (seen) {
      seen.push(record);
    } else {
      byTx.set(record.txId, [record]);
    }
  }

  for (const [txId, records] of byTx) {
    const payout = ledger.get(txId) as LedgerPayout;
    const [first] = records as [RailRecord, ...RailRecord[]];
    if (records.length > 1) {
      breaks.push({
        ...bothSides(first, payout),
        type: "duplicate_at_rail",
        key: txId,
        railReference: records.map((r) => r.railReference).join(","),
        detail: `the rail lists the payout ${records.length} times`,
      });
    }
    for (const record of distinctBy(records, (r) => `${r.amount}|${r.currency}`)) {
      if (!sameAmount(record, payout)) {
        breaks.push({
          ...bothSides(record, payout),
          type: "amount_mismatch",
          key: txId,
          detail: `ledger ${payout.amount.toFixed()} ${payout.currency}, rail ${record.amount} ${record.currency}`,
        });
        break;
      }
    }
    for (const record of distinctBy(records, (r) => r.status)) {
      if (!statusesAgree(record.status, payout.status)) {
        breaks.push({
          ...bothSides(record, payout),
          type: "status_mismatch",
          key: txId,
          detail: `ledger ${payout.status}, rail ${record.status}`,
        });
        break;
      }
    }
  }

  for (const payout of input.ledgerPayouts) {
    const ofTheDay =
      payout.railSubmittedAt !== undefined &&
      payout.railSubmittedAt >= input.day.start &&
      payout.railSubmittedAt < input.day.end;
    if (!ofTheDay || byTx.has(payout.txId) || input.previousDayTxIds.has(payout.txId)) continue;
    breaks.push({
      type: "missing_at_rail",
      key: payout.txId,
      txId: payout.txId,
      railReference: payout.providerReference,
      ledgerAmount: payout.amount.toFixed(),
      railAmount: undefined,
      currency: payout.currency,
      ledgerStatus: payout.status,
      railStatus: "",
      detail: "the rail accepted the payout but lists no record of it",
    });
  }

  const order = (b: ReconciliationBreak) => BREAK_TYPES.indexOf(b.type);
  return breaks.sort((a, b) => order(a) - order(b) || a.key.localeCompare(b.key));
}

function sameAmount(record: RailRecord, payout: LedgerPayout): boolean {
  const amount = parseDecimal(record.amount);
  return amount !== undefined && record.currency === payout.currency && amount.equals(payout.amount);
}

function distinctBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)) !== undefined);
}

function railSide(record: RailRecord) {
  return {
    txId: record.txId,
    railReference: record.railReference,
    ledgerAmount: undefined,
    railAmount: record.amount,
    currency: record.currency,
    ledgerStatus: "",
    railStatus: record.status,
  };
}

function bothSides(record: RailRecord, payout: LedgerPayout) {
  return {
    txId: payout.txId,
    railReference: record.railReference,
    ledgerAmount: payout.amount.toFixed(),
    railAmount: record.amount,
    currency: payout.currency,
    ledgerStatus: payout.status,
    railStatus: record.status,
  };
}
