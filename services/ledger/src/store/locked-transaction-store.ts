/**
 * One transaction read with its status history in one statement: row-locked for a change (and, when asked,
 * its partner's balance row after it), or unlocked for display. The caller owns the database transaction.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec } from "@payouts/platform/money/decimal";
import { isTxStatus, type TxStatus } from "../domain/transaction-status.js";
import { Statement } from "./statement.js";
import {
  TRANSACTION_COLUMNS as COLUMNS,
  fromRow,
  type HistoryRow,
  type StoredTransaction,
  type TxRow,
} from "./transaction-store.js";

/** COLUMNS of the row `alias` (never `alias.*`: statements are prepared, see pg-database.ts). */
const columnsOf = (alias: string) =>
  COLUMNS.split(",")
    .map((c) => `${alias}.${c.trim()}`)
    .join(", ");

/** A transaction read for a change: row-locked, with its history and, when asked for, its partner's balance. */
export interface LockedTransaction {
  readonly tx: StoredTransaction;
  readonly history: readonly HistoryRow[];
  /** The partner's spendable balance, row-locked after the transaction; undefined when not asked for. */
  readonly balance: Dec | undefined;
}

export interface LockOptions {
  /** Only this partner's transaction (another partner's reads as absent). */
  readonly partnerId?: string | undefined;
  /**
   * Statuses in which the partner's balance row is locked too, after the transaction row (the lock order
   * of every movement): the statuses from which the caller may move money.
   */
  readonly balanceIn?: readonly TxStatus[];
  /** A part of the statement: when it has a row, the transaction is neither read nor locked. */
  readonly unless?: string;
}

/**
 * Parts `t` (the transaction, `FOR UPDATE`) and `b` (the balance row, `FOR UPDATE`, only when `t` is in one of
 * `balanceIn`; its condition reads `t`, so `t` is always locked first). Returns the select list for the main
 * query, which must read `t` (e.g. `FROM (SELECT 1) AS one LEFT JOIN t ON true`); lockedFromRow maps it.
 */
export function addLockedTransaction(st: Statement, txId: string, opts: LockOptions): string {
  const byPartner = opts.partnerId !== undefined && opts.partnerId !== "";
  const conditions = [`tx_id = ${st.p(txId)}`];
  if (byPartner) conditions.push(`partner_id = ${st.p(opts.partnerId)}`);
  if (opts.unless) conditions.push(`NOT EXISTS (SELECT 1 FROM ${opts.unless})`);
  st.with(
    "t",
    `SELECT ${COLUMNS} FROM ledger.transactions WHERE ${conditions.join(" AND ")} FOR UPDATE`,
    true,
  );
  const balanceIn = st.p(opts.balanceIn ?? []);
  st.with(
    "b",
    `SELECT balance FROM ledger.accounts
      WHERE kind = 'balance' AND partner_id = (SELECT partner_id FROM t WHERE status = ANY(${balanceIn}::text[]))
      FOR UPDATE`,
    true,
  );
  return `${columnsOf("t")}, t.status = ANY(${balanceIn}::text[]) AS balance_locked, (SELECT balance FROM b) AS locked_balance,
    ${HISTORY_OF_T} AS history`;
}

// The status history of the row `t`, oldest first, as one json column (lockedFromRow maps it).
const HISTORY_OF_T = `(SELECT COALESCE(json_agg(json_build_array(h.sequence, h.from_status, h.to_status, h.reason,
      (extract(epoch FROM h.created_at) * 1000)::float8) ORDER BY h.sequence), '[]'::json)
    FROM ledger.status_history h WHERE h.tx_id = t.tx_id)`;

/** One transaction with its status history (no locks), in one statement; partner-scoped like findTransaction. */
export async function findTransactionWithHistory(
  q: Queryable,
  txId: string,
  partnerId: string | undefined,
): Promise<{ tx: StoredTransaction; history: readonly HistoryRow[] } | undefined> {
  const byPartner = partnerId !== undefined && partnerId !== "";
  const res = await q.query<LockedRow>(
    `SELECT ${columnsOf("t")}, ${HISTORY_OF_T} AS history FROM ledger.transactions t
      WHERE t.tx_id = $1 ${byPartner ? "AND t.partner_id = $2" : ""}`,
    byPartner ? [txId, partnerId] : [txId],
  );
  return lockedFromRow(res.rows[0]);
}

export type LockedRow = Partial<TxRow> & {
  balance_locked: boolean | null;
  locked_balance: string | null;
  history: [number, string | null, string, string, number][] | null;
};

export function lockedFromRow(r: LockedRow | undefined): LockedTransaction | undefined {
  if (r?.tx_id === undefined || r.tx_id === null) return undefined;
  const txId = r.tx_id;
  return {
    tx: fromRow(r as TxRow),
    history: (r.history ?? []).map(([sequence, from, to, reason, atMs]) =>
      historyRow(txId, sequence, from, to, reason, new Date(Math.trunc(atMs))),
    ),
    balance: r.balance_locked === true ? new Dec(r.locked_balance ?? "0") : undefined,
  };
}

/** The part `name` of `st` with one boolean column `ok`: whether the partner's transaction exists. */
export function addTransactionExists(st: Statement, txId: string, partnerId: string, name = "found"): string {
  return st.with(
    name,
    `SELECT EXISTS (SELECT 1 FROM ledger.transactions
                     WHERE tx_id = ${st.p(txId)} AND partner_id = ${st.p(partnerId)}) AS ok`,
  );
}

/** One transaction, locked for a change (see addLockedTransaction): one statement. */
export async function lockTransaction(
  q: Queryable,
  txId: string,
  opts: LockOptions = {},
): Promise<LockedTransaction | undefined> {
  const st = new Statement();
  const select = addLockedTransaction(st, txId, opts);
  const res = await st.run<LockedRow>(q, `SELECT ${select} FROM t`);
  return lockedFromRow(res.rows[0]);
}

function historyRow(
  txId: string,
  sequence: number,
  from: string | null,
  to: string,
  reason: string,
  at: Date,
): HistoryRow {
  return {
    txId,
    sequence,
    from: from !== null && isTxStatus(from) ? from : undefined,
    to: isTxStatus(to) ? to : "PENDING",
    reason,
    at,
  };
}
