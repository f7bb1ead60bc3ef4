/**
 * Reads of a partner's reconciliation view of a day: its transactions created in a period, oldest first,
 * and the balance entries each one produced, with the closed day that holds each entry, if any.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec } from "@payouts/platform/money/decimal";
import type { TransactionEntry } from "../domain/day-transactions.js";
import type { ListPosition } from "../domain/list-cursor.js";
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

interface EntryRow {
  readonly xid: string;
  readonly entry_id: string;
  readonly movement_kind: string;
  readonly amount: string;
  readonly created_at: Date;
  readonly tx_id: string;
  readonly partner_transaction_id: string | null;
  readonly currency: string | null;
  readonly local_amount: string | null;
  readonly exchange_rate: string | null;
  readonly amount_usd: string | null;
  readonly fee: string | null;
  readonly closed_day: string | null;
}

/** The balance entries of the transactions `txIds`, each transaction's in the order they were written. */
export async function entriesOfTransactions(
  q: Queryable,
  txIds: readonly string[],
): Promise<TransactionEntry[]> {
  if (txIds.length === 0) return [];
  const res = await q.query<EntryRow>(
    `SELECT e.xid::text AS xid, e.entry_id::text AS entry_id, m.kind AS movement_kind,
            e.amount::text AS amount, e.created_at, t.tx_id,
            NULLIF(t.partner_transaction_id, '') AS partner_transaction_id, t.currency,
            t.amount::text AS local_amount, t.exchange_rate::text AS exchange_rate,
            t.amount_usd::text AS amount_usd, (t.percentage_fee + t.fixed_fee)::text AS fee,
            d.day::text AS closed_day
       FROM ledger.transactions t
       JOIN ledger.movements m ON m.tx_id = t.tx_id
       JOIN ledger.entries e ON e.movement_id = m.movement_id AND e.kind = 'balance'
       LEFT JOIN ledger.statement_day_entries se ON se.entry_id = e.entry_id
       LEFT JOIN ledger.statement_days d ON d.statement_id = se.statement_id
      WHERE t.tx_id = ANY($1::text[])
      ORDER BY t.tx_id, e.xid, e.entry_id`,
    [txIds],
  );
  const dec = (v: string | null) => (v === null ? undefined : new Dec(v));
  return res.rows.map((r) => ({
    xid: BigInt(r.xid),
    entryId: BigInt(r.entry_id),
    movementKind: r.movement_kind,
    amount: new Dec(r.amount),
    createdAt: r.created_at,
    txId: r.tx_id,
    partnerTransactionId: r.partner_transaction_id ?? undefined,
    currency: r.currency ?? undefined,
    localAmount: dec(r.local_amount),
    exchangeRate: dec(r.exchange_rate),
    amountUsd: dec(r.amount_usd),
    fee: dec(r.fee),
    closedDay: r.closed_day ?? undefined,
  }));
}
