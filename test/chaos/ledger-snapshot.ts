/** What the audit and the quiescence wait read from the database, straight from the services' tables. */
import type pg from "pg";
import type { ExecutedPayout, PartnerBalance } from "./audit.js";
import type { EventTiming } from "./resumption.js";

/**
 * Every transaction that was debited (or has a payout movement, which must then be the same thing),
 * with how many payout movements and balance debits the book holds for it.
 */
export async function executedPayouts(client: pg.Client): Promise<ExecutedPayout[]> {
  const { rows } = await client.query<{
    tx_id: string;
    partner_id: string;
    status: string;
    debited_usd: string;
    payout_movements: string;
    balance_debits: string;
  }>(`
    WITH debits AS (
      SELECT m.tx_id,
             count(DISTINCT m.movement_id) AS payout_movements,
             count(e.entry_id) FILTER (WHERE e.kind = 'balance' AND e.amount < 0) AS balance_debits
        FROM ledger.movements m
        LEFT JOIN ledger.entries e ON e.movement_id = m.movement_id
       WHERE m.kind = 'payout'
       GROUP BY m.tx_id
    )
    SELECT t.tx_id, t.partner_id, t.status, COALESCE(t.debited_usd, 0)::text AS debited_usd,
           COALESCE(d.payout_movements, 0) AS payout_movements, COALESCE(d.balance_debits, 0) AS balance_debits
      FROM ledger.transactions t
      LEFT JOIN debits d ON d.tx_id = t.tx_id
     WHERE t.debited_usd IS NOT NULL OR d.tx_id IS NOT NULL
     ORDER BY t.created_at, t.tx_id`);
  return rows.map((r) => ({
    txId: r.tx_id,
    partnerId: r.partner_id,
    status: r.status,
    debitedUsd: r.debited_usd,
    payoutMovements: Number(r.payout_movements),
    balanceDebits: Number(r.balance_debits),
  }));
}

/** Each partner's `balance` account and the credits on it. */
export async function partnerBalances(client: pg.Client): Promise<PartnerBalance[]> {
  const { rows } = await client.query<{ partner_id: string; balance: string; credits: string }>(`
    SELECT a.partner_id, a.balance::text AS balance,
           COALESCE((SELECT sum(e.amount)
                       FROM ledger.entries e
                       JOIN ledger.movements m ON m.movement_id = e.movement_id
                      WHERE m.kind = 'credit' AND e.partner_id = a.partner_id AND e.kind = 'balance'), 0)::text AS credits
      FROM ledger.accounts a
     WHERE a.kind = 'balance'`);
  return rows.map((r) => ({ partnerId: r.partner_id, balanceUsd: r.balance, ledgerCreditsUsd: r.credits }));
}

/** Work still under way: payouts not settled, events not published, deliveries not finished. */
export interface Backlog {
  readonly processing: number;
  readonly unpublishedEvents: number;
  readonly openDeliveries: number;
  /** tx ids in a final status, with the status, to compare with the receiver's records. */
  readonly settled: ReadonlyArray<{ readonly txId: string; readonly status: string }>;
}

export async function backlog(client: pg.Client): Promise<Backlog> {
  const count = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
  const settled = await client.query<{ tx_id: string; status: string }>(
    `SELECT tx_id, status FROM ledger.transactions WHERE status IN ('SUCCESS', 'FAILED', 'REFUNDED')`,
  );
  return {
    processing: await count(`SELECT count(*) AS n FROM ledger.transactions WHERE status = 'PROCESSING'`),
    unpublishedEvents: await count(`SELECT count(*) AS n FROM ledger.outbox WHERE published_at IS NULL`),
    openDeliveries: await count(
      `SELECT count(*) AS n FROM webhooks.deliveries WHERE status IN ('pending', 'delivering')`,
    ),
    settled: settled.rows.map((r) => ({ txId: r.tx_id, status: r.status })),
  };
}

/** When each event was published (ledger outbox) and first stored as a delivery row (dispatcher). */
export async function eventTimings(client: pg.Client): Promise<EventTiming[]> {
  const { rows } = await client.query<{
    event_id: string;
    published_at: Date | null;
    stored_at: Date | null;
  }>(`
    SELECT o.event_id, o.published_at,
           (SELECT min(d.created_at) FROM webhooks.deliveries d WHERE d.event_id = o.event_id) AS stored_at
      FROM ledger.outbox o`);
  return rows.map((r) => ({
    eventId: r.event_id,
    publishedAt: r.published_at?.getTime(),
    storedAt: r.stored_at?.getTime(),
  }));
}
