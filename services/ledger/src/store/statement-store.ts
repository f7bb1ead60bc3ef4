/**
 * The statement feed's read: a partner's `balance` entries in (xid, entry_id) order, only below the
 * snapshot watermark `pg_snapshot_xmin(pg_current_snapshot())`. Every database transaction with an id below
 * it has ended, so no entry can still appear before the last position served: a reader paging by that
 * position never skips an entry committed late. One statement, so the watermark and the rows it returns
 * come from the same snapshot.
 *
 * The balance before a page is the nearest checkpoint at or before its first position plus the entries
 * since (migration 009): reading it costs at most about `CHECKPOINT_SPACING` entries plus a page, whatever
 * the partner's history. When the sum since the checkpoint spans that many entries or more, the same
 * statement records a checkpoint at the page's position, provided the position is below the watermark
 * (final): a cursor is opaque but not sealed, so one naming a position not yet final saves nothing.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec } from "@payouts/platform/money/decimal";
import { AMOUNT_SCALE } from "../domain/scaled-amount.js";
import type { BalanceEntry, FeedPosition, ScaledEntry } from "../domain/statement-lines.js";

/** Entries summed since the last checkpoint before a page records a new one. */
export const CHECKPOINT_SPACING = 1000;

/**
 * A balance entry as the statement reads select it (`balanceEntryColumns`): the entry, its movement's kind
 * and its transaction's frozen quote (null for a movement without a transaction).
 */
export interface BalanceEntryRow {
  readonly xid: string;
  readonly entry_id: string;
  readonly movement_kind: string;
  readonly amount: string;
  readonly created_at: Date;
  readonly tx_id: string | null;
  readonly partner_transaction_id: string | null;
  readonly currency: string | null;
  readonly local_amount: string | null;
  readonly exchange_rate: string | null;
  readonly amount_usd: string | null;
  readonly fee: string | null;
}

/**
 * The select list of a BalanceEntryRow, given the aliases of the entry, its movement and its transaction
 * (`ledger.transactions`, left-joined) in the query.
 */
export function balanceEntryColumns(entry: string, movement: string, transaction: string): string {
  const [e, m, t] = [entry, movement, transaction];
  return `${e}.xid::text AS xid, ${e}.entry_id::text AS entry_id, ${m}.kind AS movement_kind,
          ${e}.amount::text AS amount, ${e}.created_at, ${t}.tx_id,
          NULLIF(${t}.partner_transaction_id, '') AS partner_transaction_id, ${t}.currency,
          ${t}.amount::text AS local_amount, ${t}.exchange_rate::text AS exchange_rate,
          ${t}.amount_usd::text AS amount_usd, (${t}.percentage_fee + ${t}.fixed_fee)::text AS fee`;
}

const decimalOrUndefined = (v: string | null) => (v === null ? undefined : new Dec(v));

export function toBalanceEntry(r: BalanceEntryRow): BalanceEntry {
  return {
    xid: BigInt(r.xid),
    entryId: BigInt(r.entry_id),
    movementKind: r.movement_kind,
    amount: new Dec(r.amount),
    createdAt: r.created_at,
    txId: r.tx_id ?? undefined,
    partnerTransactionId: r.partner_transaction_id ?? undefined,
    currency: r.currency ?? undefined,
    localAmount: decimalOrUndefined(r.local_amount),
    exchangeRate: decimalOrUndefined(r.exchange_rate),
    amountUsd: decimalOrUndefined(r.amount_usd),
    fee: decimalOrUndefined(r.fee),
  };
}

/**
 * A balance entry as the daily statement reads it (`scaledEntryColumns`): USD amounts already scaled to
 * integers (scaled-amount.ts), local amount and rate as canonical decimal text, the time as epoch
 * milliseconds. PostgreSQL's numeric does the scaling exactly, so a row costs no decimal parsing here.
 */
export interface ScaledEntryRow {
  readonly xid: string;
  readonly entry_id: string;
  readonly movement_kind: string;
  readonly amount: string;
  readonly created_ms: number;
  readonly tx_id: string | null;
  readonly partner_transaction_id: string | null;
  readonly currency: string | null;
  readonly local_amount: string | null;
  readonly exchange_rate: string | null;
  readonly fee: string | null;
}

/** 10^AMOUNT_SCALE as a numeric literal: a stored amount times it is the amount's scaled integer. */
const SCALE_FACTOR = `1${"0".repeat(AMOUNT_SCALE)}`;

/**
 * The select list of a ScaledEntryRow (aliases as `balanceEntryColumns`). Every amount is numeric(38, 18)
 * (AMOUNT_SCALE decimals), so `trunc(x * 10^18)` is exact; `trim_scale` writes the canonical text of
 * `toDecimalString` (plain, no trailing zeros); the milliseconds are truncated as a JavaScript Date of the
 * timestamp would be.
 */
export function scaledEntryColumns(entry: string, movement: string, transaction: string): string {
  const [e, m, t] = [entry, movement, transaction];
  return `${e}.xid::text AS xid, ${e}.entry_id::text AS entry_id, ${m}.kind AS movement_kind,
          trunc(${e}.amount * ${SCALE_FACTOR})::text AS amount,
          floor(extract(epoch FROM ${e}.created_at) * 1000)::float8 AS created_ms, ${t}.tx_id,
          NULLIF(${t}.partner_transaction_id, '') AS partner_transaction_id, ${t}.currency,
          trim_scale(${t}.amount)::text AS local_amount, trim_scale(${t}.exchange_rate)::text AS exchange_rate,
          trunc((${t}.percentage_fee + ${t}.fixed_fee) * ${SCALE_FACTOR})::text AS fee`;
}

/** The row as a ScaledEntry: no decimal object, no decimal parsing per entry (the daily statement's read). */
export function toScaledEntry(r: ScaledEntryRow): ScaledEntry {
  return {
    xid: BigInt(r.xid),
    entryId: BigInt(r.entry_id),
    movementKind: r.movement_kind,
    amount: BigInt(r.amount),
    createdAt: new Date(r.created_ms),
    txId: r.tx_id ?? undefined,
    partnerTransactionId: r.partner_transaction_id ?? undefined,
    currency: r.currency ?? undefined,
    localAmount: r.local_amount ?? undefined,
    exchangeRate: r.exchange_rate ?? undefined,
    fee: r.fee === null ? undefined : BigInt(r.fee),
  };
}

interface EntryRow extends BalanceEntryRow {
  readonly opening: string;
}

/**
 * Up to `limit` entries from `from` on (inclusive of its entry, whose lines the caller drops up to the
 * position), and the balance before the first of them.
 */
export async function feedEntries(
  q: Queryable,
  partnerId: string,
  from: FeedPosition | undefined,
  limit: number,
  checkpointSpacing = CHECKPOINT_SPACING,
): Promise<{ entries: BalanceEntry[]; opening: Dec }> {
  const res = await q.query<EntryRow>(
    `WITH watermark AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
     page AS (
       SELECT e.xid, e.entry_id, e.movement_id, e.amount, e.created_at
         FROM ledger.entries e, watermark w
        WHERE e.partner_id = $1 AND e.kind = 'balance' AND e.xid < w.xmin
          AND (e.xid, e.entry_id) >= ($2::xid8, $3::bigint)
        ORDER BY e.xid, e.entry_id
        LIMIT $4
     ),
     checkpoint AS (
       (SELECT xid, entry_id, balance_before
          FROM ledger.feed_checkpoints
         WHERE partner_id = $1 AND (xid, entry_id) <= ($2::xid8, $3::bigint)
         ORDER BY xid DESC, entry_id DESC
         LIMIT 1)
       UNION ALL
       SELECT '0'::xid8, 0, 0 -- the start of the feed, before every entry
       ORDER BY xid DESC, entry_id DESC
       LIMIT 1
     ),
     opening AS (
       SELECT c.balance_before + COALESCE(sum(e.amount), 0) AS s, count(e.entry_id) AS since
         FROM checkpoint c
         LEFT JOIN ledger.entries e
           ON e.partner_id = $1 AND e.kind = 'balance'
          AND (e.xid, e.entry_id) >= (c.xid, c.entry_id) AND (e.xid, e.entry_id) < ($2::xid8, $3::bigint)
        GROUP BY c.balance_before
     ),
     saved AS (
       INSERT INTO ledger.feed_checkpoints (partner_id, xid, entry_id, balance_before)
       SELECT $1, $2::xid8, $3::bigint, o.s
         FROM opening o, watermark w
        WHERE o.since >= $5 AND $2::xid8 < w.xmin
       ON CONFLICT DO NOTHING
     )
     SELECT ${balanceEntryColumns("p", "m", "t")}, o.s::text AS opening
       FROM page p
       JOIN ledger.movements m ON m.movement_id = p.movement_id
       LEFT JOIN ledger.transactions t ON t.tx_id = m.tx_id
      CROSS JOIN opening o
      ORDER BY p.xid, p.entry_id`,
    // Without a cursor the feed starts at (0, 0), before every entry.
    [partnerId, (from?.xid ?? 0n).toString(), (from?.entryId ?? 0n).toString(), limit, checkpointSpacing],
  );
  return { opening: new Dec(res.rows[0]?.opening ?? "0"), entries: res.rows.map(toBalanceEntry) };
}
