/**
 * Reads of a partner's reconciliation view of a day: its transactions created in a period, oldest first,
 * and the balance entries each one produced, with the closed day that holds each entry, if any.
 */
import type { Queryable } from "@payouts/platform/database/database";
import type { TransactionEntry } from "../domain/day-transactions.js";
import type { ListPosition } from "../domain/list-cursor.js";
import { type BalanceEntryRow, balanceEntryColumns, toBalanceEntry } from "./statement-store.js";
import { fromRow, type StoredTransaction, TRANSACTION_COLUMNS, type TxRow } from "./transaction-store.js";

/** Transactions created in [start, end), by (created_at, tx_id), after `after`, at most `limit`. */
export async function transactionsCreatedIn(
  q: Queryable,
  partnerId: string,
  period: { start: Date; end: Date },
  after: ListPosition | undefined,
  limit: number,
): Promise<StoredTransaction[]> {
  const res = await q.query<TxRow>(
    `SELECT ${TRANSACTION_COLUMNS} FROM ledger.transactions
      WHERE partner_id = $1 AND created_at >= $2 AND created_at < $3
        AND (created_at, tx_id) > ($4::timestamptz, $5::text)
      ORDER BY created_at, tx_id
      LIMIT $6`,
    [partnerId, period.start, period.end, after?.createdAt ?? new Date(0), after?.txId ?? "", limit],
  );
  return res.rows.map(fromRow);
}

interface EntryRow extends BalanceEntryRow {
  readonly tx_id: string;
  readonly closed_day: string | null;
}

/** The balance entries of the transactions `txIds`, each transaction's in the order they were written. */
export async function entriesOfTransactions(
  q: Queryable,
  txIds: readonly string[],
): Promise<TransactionEntry[]> {
  if (txIds.length === 0) return [];
  const res = await q.query<EntryRow>(
    `SELECT ${balanceEntryColumns("e", "m", "t")}, d.day::text AS closed_day
       FROM ledger.transactions t
       JOIN ledger.movements m ON m.tx_id = t.tx_id
       JOIN ledger.entries e ON e.movement_id = m.movement_id AND e.kind = 'balance'
       LEFT JOIN ledger.statement_day_entries se ON se.entry_id = e.entry_id
       LEFT JOIN ledger.statement_days d ON d.statement_id = se.statement_id
      WHERE t.tx_id = ANY($1::text[])
      ORDER BY t.tx_id, e.xid, e.entry_id`,
    [txIds],
  );
  return res.rows.map((r) => ({ ...toBalanceEntry(r), closedDay: r.closed_day ?? undefined }));
}
