/**
 * The ledger's invariants, checked straight in its tables (TigerBeetle-style auditor checks):
 *   1. every movement's entries sum to zero;
 *   2. every account's balance equals the sum of its entries;
 *   3. no partner-side account is negative and no funding account positive;
 *   4. every status change has exactly one outbox event, with the matching type and sequence;
 *   5. what each transaction moved matches its status (debited once, settled/reversed/refunded once);
 *   6. a partner's reservation is the sum of its batches' shares, none negative, and a completed (or never
 *      funded) batch holds nothing;
 *   credits and adjustments (operator movements) belong to no transaction and must balance like any other;
 *   a batch item's transaction is debited from its batch's reservation (batch_payout) instead of the balance.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec } from "@payouts/platform/money/decimal";

const EVENT_BY_STATUS: Record<string, string> = {
  PENDING: "transaction.created",
  PROCESSING: "transaction.processing",
  SUCCESS: "transaction.success",
  FAILED: "transaction.failed",
  REFUNDED: "transaction.refunded",
  EXPIRED: "transaction.expired",
};

const MOVEMENTS_BY_STATUS: Record<string, string> = {
  PENDING: "",
  EXPIRED: "",
  PROCESSING: "payout",
  SUCCESS: "payout,settlement",
  FAILED: "payout,reversal",
  REFUNDED: "payout,refund,settlement",
};

export async function assertLedgerInvariants(db: Queryable): Promise<void> {
  const unbalanced = await db.query(
    "SELECT movement_id, SUM(amount) AS total FROM ledger.entries GROUP BY movement_id HAVING SUM(amount) <> 0",
  );
  if (unbalanced.rowCount > 0) throw new Error(`unbalanced movements: ${JSON.stringify(unbalanced.rows)}`);

  const drift = await db.query(
    `SELECT a.partner_id, a.kind, a.balance, COALESCE(SUM(e.amount), 0) AS entries
       FROM ledger.accounts a LEFT JOIN ledger.entries e ON e.partner_id = a.partner_id AND e.kind = a.kind
      GROUP BY a.partner_id, a.kind, a.balance HAVING a.balance <> COALESCE(SUM(e.amount), 0)`,
  );
  if (drift.rowCount > 0) throw new Error(`balance differs from entries: ${JSON.stringify(drift.rows)}`);

  const wrongSign = await db.query(
    `SELECT partner_id, kind, balance FROM ledger.accounts
      WHERE (kind = 'funding' AND balance > 0) OR (kind <> 'funding' AND balance < 0)`,
  );
  if (wrongSign.rowCount > 0)
    throw new Error(`accounts with the wrong sign: ${JSON.stringify(wrongSign.rows)}`);

  const perPartner = await db.query(
    "SELECT partner_id, SUM(balance) AS total FROM ledger.accounts GROUP BY partner_id HAVING SUM(balance) <> 0",
  );
  if (perPartner.rowCount > 0)
    throw new Error(`partner books do not sum to zero: ${JSON.stringify(perPartner.rows)}`);

  const events = await db.query<{
    tx_id: string;
    sequence: number;
    to_status: string;
    types: string[] | null;
  }>(
    `SELECT h.tx_id, h.sequence, h.to_status, array_agg(o.event_type) FILTER (WHERE o.event_id IS NOT NULL) AS types
       FROM ledger.status_history h LEFT JOIN ledger.outbox o ON o.tx_id = h.tx_id AND o.sequence = h.sequence
      GROUP BY h.tx_id, h.sequence, h.to_status`,
  );
  for (const r of events.rows) {
    if (r.types?.length !== 1 || r.types[0] !== EVENT_BY_STATUS[r.to_status]) {
      throw new Error(
        `status change ${r.tx_id}#${r.sequence} → ${r.to_status} has events ${JSON.stringify(r.types)}`,
      );
    }
  }
  const orphans = await db.query(
    `SELECT o.event_id FROM ledger.outbox o
       LEFT JOIN ledger.status_history h ON h.tx_id = o.tx_id AND h.sequence = o.sequence
      WHERE o.tx_id IS NOT NULL AND h.tx_id IS NULL`,
  );
  if (orphans.rowCount > 0)
    throw new Error(`outbox events without a status change: ${JSON.stringify(orphans.rows)}`);
  // Every closed day has exactly one statement.closed event, keyed by its statement id, and no such event
  // names a day that was not closed.
  const statementEvents = await db.query(
    `SELECT coalesce(d.statement_id, o.event_key) AS statement_id, count(o.event_id)::int AS events
       FROM ledger.statement_days d
       FULL JOIN (SELECT * FROM ledger.outbox WHERE event_type = 'statement.closed') o
         ON o.event_key = d.statement_id
      GROUP BY 1 HAVING count(o.event_id) <> 1 OR bool_or(d.statement_id IS NULL)`,
  );
  if (statementEvents.rowCount > 0)
    throw new Error(`closed days without exactly one event: ${JSON.stringify(statementEvents.rows)}`);

  // An operator key (credit or statement correction) names the credit or adjustment movement it posted.
  const strayCreditKeys = await db.query(
    `SELECT k.idempotency_key, k.movement_id, m.kind FROM ledger.idempotency_keys k
       LEFT JOIN ledger.movements m ON m.movement_id = k.movement_id
      WHERE k.movement_id IS NOT NULL AND (m.kind IS NULL OR m.kind NOT IN ('credit', 'adjustment') OR k.partner_id <> '')`,
  );
  if (strayCreditKeys.rowCount > 0)
    throw new Error(`credit keys not naming a credit: ${JSON.stringify(strayCreditKeys.rows)}`);

  await assertMovementsMatchStatus(db);
  await assertReservations(db);
}

async function assertReservations(db: Queryable): Promise<void> {
  const shares = await db.query<{ batch_id: string; status: string; held: string; kept: string }>(
    `SELECT b.batch_id, b.status, COALESCE(SUM(e.amount), 0)::text AS held, b.held_usd::text AS kept
       FROM ledger.batches b
       LEFT JOIN ledger.movements m ON m.batch_id = b.batch_id
       LEFT JOIN ledger.entries e ON e.movement_id = m.movement_id AND e.kind = 'reservation'
      GROUP BY b.batch_id, b.status, b.held_usd`,
  );
  for (const r of shares.rows) {
    const held = new Dec(r.held);
    // The share the entry trigger keeps on the batch row is the sum of its entries, exactly.
    if (!held.eq(r.kept))
      throw new Error(`batch ${r.batch_id} keeps ${r.kept} but its entries hold ${r.held}`);
    if (held.isNeg()) throw new Error(`batch ${r.batch_id} holds ${r.held}`);
    if (r.status !== "PROCESSING" && !held.isZero()) {
      throw new Error(`batch ${r.batch_id} is ${r.status} but still holds ${r.held}`);
    }
  }
  const partners = await db.query(
    `SELECT a.partner_id FROM ledger.accounts a
      WHERE a.kind = 'reservation' AND a.balance <> (
        SELECT COALESCE(SUM(e.amount), 0) FROM ledger.entries e JOIN ledger.movements m ON m.movement_id = e.movement_id
         WHERE e.partner_id = a.partner_id AND e.kind = 'reservation' AND m.batch_id IS NOT NULL)`,
  );
  if (partners.rowCount > 0)
    throw new Error(`reservations off their batches: ${JSON.stringify(partners.rows)}`);
}

async function assertMovementsMatchStatus(db: Queryable): Promise<void> {
  const rows = await db.query<{
    tx_id: string;
    status: string;
    kinds: string | null;
    debited_usd: string | null;
    total: string | null;
    payout: string | null;
    in_batch: boolean;
  }>(
    `SELECT t.tx_id, t.status, t.debited_usd, t.amount_usd + t.percentage_fee + t.fixed_fee AS total,
            t.batch_id IS NOT NULL AS in_batch,
            (SELECT string_agg(m.kind, ',' ORDER BY m.kind) FROM ledger.movements m WHERE m.tx_id = t.tx_id) AS kinds,
            (SELECT -SUM(e.amount) FROM ledger.entries e JOIN ledger.movements m ON m.movement_id = e.movement_id
              WHERE m.tx_id = t.tx_id AND ((m.kind = 'payout' AND e.kind = 'balance')
                 OR (m.kind = 'batch_payout' AND e.kind = 'reservation'))) AS payout
       FROM ledger.transactions t`,
  );
  for (const r of rows.rows) {
    const byStatus = MOVEMENTS_BY_STATUS[r.status] ?? "";
    const expected = r.in_batch ? byStatus.replace("payout", "batch_payout") : byStatus;
    if ((r.kinds ?? "") !== expected) {
      throw new Error(`${r.tx_id} is ${r.status} with movements "${r.kinds}" (expected "${expected}")`);
    }
    if (r.debited_usd !== null && !new Dec(r.debited_usd).eq(new Dec(r.total ?? "NaN"))) {
      throw new Error(`${r.tx_id} debited ${r.debited_usd} but its quote totals ${r.total}`);
    }
    if (r.payout !== null && !new Dec(r.payout).eq(new Dec(r.debited_usd ?? "NaN"))) {
      throw new Error(`${r.tx_id} payout movement took ${r.payout}, debited_usd says ${r.debited_usd}`);
    }
  }
}

export async function balanceOf(db: Queryable, partnerId: string, kind = "balance"): Promise<string> {
  const res = await db.query<{ balance: string }>(
    "SELECT balance FROM ledger.accounts WHERE partner_id = $1 AND kind = $2",
    [partnerId, kind],
  );
  return new Dec(res.rows[0]?.balance ?? "0").toFixed();
}
