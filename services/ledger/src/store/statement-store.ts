/**
 * The statement feed's read: a partner's `balance` entries in (xid, entry_id) order, only below the
 * snapshot watermark `pg_snapshot_xmin(pg_current_snapshot())`. Every database transaction with an id below
 * it has ended, so no entry can still appear before the last position served: a reader paging by that
 * position never skips an entry committed late. One statement, so the watermark and the rows it returns
 * come from the same snapshot.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec } from "@payouts/platform/money/decimal";
import type { BalanceEntry, FeedPosition } from "../domain/statement-lines.js";

interface EntryRow {
  readonly xid: string;
  readonly entry_id: string;
  readonly movement_kind: string;
  readonly amount: string;
  readonly created_at: Date;
  readonly opening: string;
  readonly tx_id: string | null;
  readonly partner_transaction_id: string | null;
  readonly currency: string | null;
  readonly local_amount: string | null;
  readonly exchange_rate: string | null;
  readonly amount_usd: string | null;
  readonly fee: string | null;
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
     opening AS (
       SELECT COALESCE(sum(e.amount), 0) AS s
         FROM ledger.entries e
        WHERE e.partner_id = $1 AND e.kind = 'balance' AND (e.xid, e.entry_id) < ($2::xid8, $3::bigint)
     )
     SELECT p.xid::text AS xid, p.entry_id::text AS entry_id, m.kind AS movement_kind,
            p.amount::text AS amount, p.created_at, o.s::text AS opening,
            t.tx_id, NULLIF(t.partner_transaction_id, '') AS partner_transaction_id, t.currency,
            t.amount::text AS local_amount, t.exchange_rate::text AS exchange_rate,
            t.amount_usd::text AS amount_usd, (t.percentage_fee + t.fixed_fee)::text AS fee
       FROM page p
       JOIN ledger.movements m ON m.movement_id = p.movement_id
       LEFT JOIN ledger.transactions t ON t.tx_id = m.tx_id
      CROSS JOIN opening o
      ORDER BY p.xid, p.entry_id`,
    // Without a cursor the feed starts at (0, 0), before every entry.
    [partnerId, (from?.xid ?? 0n).toString(), (from?.entryId ?? 0n).toString(), limit],
  );
  const opening = new Dec(res.rows[0]?.opening ?? "0");
  const dec = (v: string | null) => (v === null ? undefined : new Dec(v));
  return {
    opening,
    entries: res.rows.map((r) => ({
      xid: BigInt(r.xid),
      entryId: BigInt(r.entry_id),
      movementKind: r.movement_kind,
      amount: new Dec(r.amount),
      createdAt: r.created_at,
      txId: r.tx_id ?? undefined,
      partnerTransactionId: r.partner_transaction_id ?? undefined,
      currency: r.currency ?? undefined,
      localAmount: dec(r.local_amount),
      exchangeRate: dec(r.exchange_rate),
      amountUsd: dec(r.amount_usd),
      fee: dec(r.fee),
    })),
  };
}
