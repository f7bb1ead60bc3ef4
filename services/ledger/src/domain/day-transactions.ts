/**
 * A partner's reconciliation view of a day, pure: each transaction it created that day with the
 * statement lines it produced (the amount and fee lines of its debit, reversal or refund), and the day
 * whose statement holds each line. Keyed for the partner by `partner_transaction_id`.
 */
import { Dec } from "@payouts/platform/money/decimal";
import type { StatementLineType } from "@payouts/platform/statement-feed";
import { localDate } from "./statement-days.js";
import { type BalanceEntry, statementLines } from "./statement-lines.js";

/** A balance entry of a transaction, with the date of the closed statement day that holds it, if any. */
export interface TransactionEntry extends BalanceEntry {
  readonly closedDay: string | undefined;
}

export interface DayTransactionLine {
  readonly id: string;
  readonly type: StatementLineType;
  /** Signed: negative takes from the balance. */
  readonly amountUsd: Dec;
  readonly createdAt: Date;
  readonly statementDate: string;
}

export interface DayTransactionLines {
  readonly lines: DayTransactionLine[];
  /** Σ of the lines: what the transaction has moved on the balance so far. */
  readonly balanceEffect: Dec;
}

/**
 * The lines of each transaction of `entries` (grouped by tx_id, each group in feed order). A line's
 * statement day is the closed day holding its entry; an entry no closed day holds yet posts on the day
 * it falls on in `timeZone`, or on the first open day when that day has already closed without it.
 */
export function linesByTransaction(
  entries: readonly TransactionEntry[],
  timeZone: string,
  firstOpenDay: string | undefined,
): Map<string, DayTransactionLines> {
  const groups = new Map<string, TransactionEntry[]>();
  for (const entry of entries) {
    const txId = entry.txId ?? "";
    groups.set(txId, [...(groups.get(txId) ?? []), entry]);
  }
  const byTx = new Map<string, DayTransactionLines>();
  for (const [txId, group] of groups) {
    const dayOf = new Map(group.map((e) => [e.entryId, statementDay(e, timeZone, firstOpenDay)]));
    const lines = statementLines(group, new Dec(0)).map((line) => ({
      id: line.id,
      type: line.type,
      amountUsd: line.amountUsd,
      createdAt: line.createdAt,
      statementDate: dayOf.get(line.position.entryId) ?? "",
    }));
    const balanceEffect = lines.reduce((sum, line) => sum.plus(line.amountUsd), new Dec(0));
    byTx.set(txId, { lines, balanceEffect });
  }
  return byTx;
}

function statementDay(entry: TransactionEntry, timeZone: string, firstOpenDay: string | undefined): string {
  if (entry.closedDay) return entry.closedDay;
  const falls = localDate(entry.createdAt, timeZone);
  return firstOpenDay && falls < firstOpenDay ? firstOpenDay : falls;
}
