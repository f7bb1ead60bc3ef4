/**
 * Operators' reads across partners (LedgerAdminService): transaction search, a transaction's movements,
 * a partner's balance history, balances in bulk and the overview's aggregates. Read-only; each function
 * is one statement, so what it answers comes from one snapshot.
 */
import type { Queryable } from "@payouts/platform/database/database";
import {
  type ListPage,
  listNewestFirst,
  type StoredTransaction,
  type TransactionFilter,
} from "./transaction-store.js";

/** Any partner's transactions: every filter is optional. */
export type SearchFilter = TransactionFilter & ListPage;

/** Newest first, by (created_at, tx_id) descending; `after` is the last position of the previous page. */
export async function searchTransactions(q: Queryable, f: SearchFilter): Promise<StoredTransaction[]> {
  return listNewestFirst(q, f);
}

export interface MovementRow {
  readonly movement_id: string;
  readonly partner_id: string;
  readonly kind: string;
  readonly tx_id: string | null;
  readonly reference: string;
  readonly created_at: Date;
  readonly lines: { account: string; amount: string }[];
}

/** The movements of one transaction, oldest first, each with its entries in the order they were written. */
export async function movementsOf(q: Queryable, txId: string): Promise<MovementRow[]> {
  const res = await q.query<MovementRow>(
    `SELECT m.movement_id, m.partner_id, m.kind, m.tx_id, m.reference, m.created_at,
            COALESCE((SELECT json_agg(json_build_object('account', e.kind, 'amount', e.amount::text)
                                      ORDER BY e.entry_id)
                        FROM ledger.entries e WHERE e.movement_id = m.movement_id), '[]') AS lines
       FROM ledger.movements m
      WHERE m.tx_id = $1
      ORDER BY m.created_at, m.movement_id`,
    [txId],
  );
  return res.rows;
}

export interface BalanceEntryRow {
  readonly entry_id: string;
  readonly movement_id: string;
  readonly kind: string;
  readonly tx_id: string | null;
  readonly reference: string;
  readonly amount: string;
  readonly balance_after: string;
  readonly balance_now: string;
  readonly created_at: Date;
}

/**
 * Entries of the partner's balance account, newest first, below entry id `before` (all when undefined),
 * each with the balance right after it: the balance now minus every later entry, all read in one
 * snapshot, so the figures of a page always chain.
 */
export async function balanceEntries(
  q: Queryable,
  partnerId: string,
  before: bigint | undefined,
  limit: number,
): Promise<{ rows: BalanceEntryRow[]; balanceNow: string }> {
  const res = await q.query<BalanceEntryRow>(
    `WITH now_balance AS (
       SELECT COALESCE((SELECT balance FROM ledger.accounts WHERE partner_id = $1 AND kind = 'balance'), 0) AS b
     ), later AS (
       SELECT COALESCE(sum(amount), 0) AS s FROM ledger.entries
        WHERE partner_id = $1 AND kind = 'balance' AND $2::bigint IS NOT NULL AND entry_id >= $2::bigint
     ), page AS (
       SELECT e.entry_id, e.movement_id, e.amount, e.created_at
         FROM ledger.entries e
        WHERE e.partner_id = $1 AND e.kind = 'balance' AND ($2::bigint IS NULL OR e.entry_id < $2::bigint)
        ORDER BY e.entry_id DESC LIMIT $3
     )
     SELECT p.entry_id::text AS entry_id, p.movement_id, m.kind, m.tx_id, m.reference, p.amount::text AS amount,
            (now_balance.b - later.s
              - COALESCE(sum(p.amount) OVER (ORDER BY p.entry_id DESC ROWS BETWEEN UNBOUNDED PRECEDING
                                                                          AND 1 PRECEDING), 0))::text
              AS balance_after,
            now_balance.b::text AS balance_now, p.created_at
       FROM page p
       JOIN ledger.movements m ON m.movement_id = p.movement_id
      CROSS JOIN now_balance CROSS JOIN later
      ORDER BY p.entry_id DESC`,
    [partnerId, before === undefined ? null : before.toString(), limit],
  );
  const balanceNow =
    res.rows[0]?.balance_now ??
    (
      await q.query<{ b: string }>(
        `SELECT COALESCE((SELECT balance FROM ledger.accounts WHERE partner_id = $1 AND kind = 'balance'), 0)::text AS b`,
        [partnerId],
      )
    ).rows[0]?.b ??
    "0";
  return { rows: res.rows, balanceNow };
}

export interface BalanceRow {
  readonly partner_id: string;
  readonly balance: string;
  readonly in_flight: string;
}

/** The balance and in-flight amounts of the partners named that have accounts. */
export async function balancesOf(q: Queryable, partnerIds: readonly string[]): Promise<BalanceRow[]> {
  const res = await q.query<BalanceRow>(
    `SELECT partner_id,
            (sum(balance) FILTER (WHERE kind = 'balance'))::text AS balance,
            (sum(balance) FILTER (WHERE kind = 'in_flight'))::text AS in_flight
       FROM ledger.accounts
      WHERE partner_id = ANY($1::text[]) AND kind IN ('balance', 'in_flight')
      GROUP BY partner_id`,
    [partnerIds],
  );
  return res.rows;
}

export interface PayoutCountRow {
  readonly window_seconds: number;
  readonly country_code: string;
  readonly currency: string;
  readonly status: string;
  readonly count: string;
  readonly amount: string;
  readonly debited_usd: string;
}

/** Transactions created in each window ending at `now`, by corridor and status (the widest window is scanned once). */
export async function payoutCounts(
  q: Queryable,
  now: Date,
  windowSeconds: readonly number[],
): Promise<PayoutCountRow[]> {
  const widest = Math.max(...windowSeconds);
  const res = await q.query<PayoutCountRow>(
    `SELECT w.s AS window_seconds, t.country_code, t.currency, t.status, count(*)::text AS count,
            COALESCE(sum(t.amount), 0)::text AS amount, COALESCE(sum(t.debited_usd), 0)::text AS debited_usd
       FROM ledger.transactions t
       JOIN unnest($2::int[]) AS w(s) ON t.created_at >= $1::timestamptz - make_interval(secs => w.s)
      WHERE t.created_at >= $1::timestamptz - make_interval(secs => $3::int) AND t.created_at <= $1::timestamptz
      GROUP BY w.s, t.country_code, t.currency, t.status
      ORDER BY w.s, t.country_code, t.currency, t.status`,
    [now, windowSeconds, widest],
  );
  return res.rows;
}

export interface LedgerTotals {
  readonly total_balance: string;
  readonly total_in_flight: string;
  readonly partners: string;
  readonly outbox_unpublished: string;
  readonly outbox_oldest_age_ms: string;
}

/** Sums over every partner's accounts and the outbox backlog, in one statement. */
export async function ledgerTotals(q: Queryable): Promise<LedgerTotals> {
  const res = await q.query<LedgerTotals>(
    `SELECT
       (SELECT COALESCE(sum(balance), 0)::text FROM ledger.accounts WHERE kind = 'balance') AS total_balance,
       (SELECT COALESCE(sum(balance), 0)::text FROM ledger.accounts WHERE kind = 'in_flight') AS total_in_flight,
       (SELECT count(*)::text FROM ledger.accounts WHERE kind = 'balance') AS partners,
       o.unpublished::text AS outbox_unpublished,
       COALESCE(GREATEST(0, floor(EXTRACT(EPOCH FROM (clock_timestamp() - o.oldest)) * 1000)), 0)::bigint::text
         AS outbox_oldest_age_ms
     FROM (SELECT count(*) AS unpublished, min(created_at) AS oldest
             FROM ledger.outbox WHERE published_at IS NULL) o`,
  );
  return res.rows[0]!;
}
