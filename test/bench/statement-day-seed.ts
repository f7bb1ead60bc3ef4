/**
 * A partner's day of statement lines written straight into the ledger's tables, set-wise: a few
 * INSERT … SELECT over generate_series per database transaction of CHUNK_MOVEMENTS movements, instead of one API
 * call (or one statement) per line.
 * The rows are the ones the ledger writes itself — accounts, movements, entries and, for payouts, the
 * transaction and its status history — and the ledger's own triggers run on them: every entry moves its
 * account's balance, every movement is checked to sum to zero at commit, and the balance may never go below
 * zero (each credit comes before the payouts it pays for).
 *
 * Every fifth movement is an operator credit of 1,000 USD (one statement line); the others are payouts in
 * PROCESSING of 54 BRL at 5.4 BRL per USD (10 USD + 0.15 + 0.30 fees = 10.45 USD debited), already
 * submitted to the rail, so no worker picks them up. A payout's balance entry is two statement lines (the
 * amount and the fee), so the day has a little over 1.5 lines per movement; the last movement is a credit
 * where a payout would overshoot the lines asked for. No outbox events are written: the day is read, not
 * announced.
 */
import pg from "pg";

export interface SeededDay {
  /** The day (UTC, the time zone of a partner that never set one), YYYY-MM-DD. */
  readonly date: string;
  /** Statement lines of the day. */
  readonly lines: number;
  /** Movements written (each with one balance entry). */
  readonly movements: number;
  /** The last database transaction id (xid8) that wrote entries: the day is readable once it is below the watermark. */
  readonly xid: bigint;
  readonly seconds: number;
}

/** Lines of the day that are credits: one in this many. */
const CREDIT_EVERY = 5;
const CREDIT_USD = "1000";
/**
 * Lines per database transaction. The entries trigger updates the same account rows once per entry; within
 * one transaction each update must step over every row version the transaction made before (none can be
 * pruned until it commits), so one transaction per day costs time quadratic in its size.
 */
const CHUNK_MOVEMENTS = 500;

/** Writes `lines` statement lines for `partnerId` on today's UTC date, between midnight and now. */
export async function seedStatementDay(
  databaseUrl: string,
  partnerId: string,
  lines: number,
  now = new Date(),
): Promise<SeededDay> {
  if (!Number.isInteger(lines) || lines < 1) throw new Error(`lines must be a positive integer: ${lines}`);
  const date = now.toISOString().slice(0, 10);
  const dayStart = new Date(`${date}T00:00:00Z`);
  // Spread over most of the day so far; every line stays before `now`, so the open day holds them all.
  const spanMs = Math.max(now.getTime() - dayStart.getTime() - 1000, 1);
  const { movements, creditAt } = movementsFor(lines);
  const stepMicros = Math.max(Math.floor((spanMs * 1000) / movements), 0);
  const prefix = `${partnerId}_${now.getTime().toString(36)}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const t0 = performance.now();
  try {
    let xid = 0n;
    for (let from = 0; from < movements; from += CHUNK_MOVEMENTS) {
      const to = Math.min(from + CHUNK_MOVEMENTS, movements);
      xid = await seedChunk(client, partnerId, { from, to, creditAt, dayStart, stepMicros, prefix });
    }
    return { date, lines, movements, xid, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await client.end();
  }
}

/**
 * How many movements make `lines` statement lines: a credit (every fifth movement) is one line, a payout
 * two. `creditAt` is a last movement made a credit so the count comes out exact (-1 when none is needed).
 */
export function movementsFor(lines: number): { movements: number; creditAt: number } {
  let movements = 0;
  let made = 0;
  let creditAt = -1;
  while (made < lines) {
    const credit = movements % CREDIT_EVERY === 0;
    if (!credit && made + 2 > lines) {
      creditAt = movements;
      made += 1;
    } else made += credit ? 1 : 2;
    movements += 1;
  }
  return { movements, creditAt };
}

interface Chunk {
  /** Movement numbers `from` ..< `to` of the day. */
  readonly from: number;
  readonly to: number;
  /** A movement that is a credit though not a fifth one (-1: none). */
  readonly creditAt: number;
  readonly dayStart: Date;
  /** Microseconds between two movements' created_at. */
  readonly stepMicros: number;
  readonly prefix: string;
}

/** One database transaction writing movements `from` ..< `to`; answers its transaction id (xid8). */
async function seedChunk(client: pg.Client, partnerId: string, chunk: Chunk): Promise<bigint> {
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO ledger.accounts (partner_id, kind)
       SELECT $1, kind FROM unnest(ARRAY['balance', 'in_flight', 'settled', 'fees', 'funding']) AS kind
       ON CONFLICT (partner_id, kind) DO NOTHING`,
      [partnerId],
    );
    // The lock every movement of the partner takes first (ledger-store.ts lockBalance).
    await client.query(
      `SELECT balance FROM ledger.accounts WHERE partner_id = $1 AND kind = 'balance' FOR UPDATE`,
      [partnerId],
    );
    await client.query(
      `CREATE TEMP TABLE seed_movements ON COMMIT DROP AS
       SELECT i,
              $1::timestamptz + make_interval(secs => i * $2::bigint / 1e6) AS at,
              i % ${CREDIT_EVERY} = 0 OR i = $6::int AS credit,
              $3 || '_' || lpad(i::text, 7, '0') AS id
         FROM generate_series($4::int, $5::int - 1) AS i`,
      [chunk.dayStart, chunk.stepMicros, chunk.prefix, chunk.from, chunk.to, chunk.creditAt],
    );
    await client.query(
      `INSERT INTO ledger.transactions (tx_id, partner_id, customer_id, status, country_code, currency,
         destination, amount, partner_transaction_id, quote_id, exchange_rate, amount_usd, percentage_fee,
         fixed_fee, quote_expires_at, debited_usd, execution_key, provider_reference, rail_submitted_at,
         rail_attempts, event_sequence, pending_expires_at, created_at, updated_at)
       SELECT 'txn_' || id, $1, 'cus_bench', 'PROCESSING', 'BR', 'BRL',
              '{"countryCode":"BR","paymentMethod":"payment_key","paymentDestination":"52998224725","paymentDestinationCode":"PIX"}'::jsonb,
              54, 'order-' || i, 'quo_' || id, 5.4, 10, 0.15, 0.30, at + interval '15 minutes', 10.45,
              'key-' || id, 'rail-' || id, at, 1, 2, at + interval '1 hour', at, at
         FROM seed_movements WHERE NOT credit`,
      [partnerId],
    );
    await client.query(
      `INSERT INTO ledger.status_history (tx_id, sequence, from_status, to_status, created_at)
       SELECT 'txn_' || id, s.sequence, s.from_status, s.to_status, at
         FROM seed_movements, (VALUES (1, NULL, 'PENDING'), (2, 'PENDING', 'PROCESSING')) AS s(sequence, from_status, to_status)
        WHERE NOT credit`,
    );
    await client.query(
      `INSERT INTO ledger.movements (movement_id, partner_id, kind, tx_id, reference, created_at)
       SELECT 'mov_' || id, $1, CASE WHEN credit THEN 'credit' ELSE 'payout' END,
              CASE WHEN credit THEN NULL ELSE 'txn_' || id END,
              CASE WHEN credit THEN 'statement bench funding' ELSE '' END, at
         FROM seed_movements ORDER BY i`,
      [partnerId],
    );
    // The postings of posting-rules.ts: a credit is funding −x, balance +x; a payout balance −t, in_flight +t.
    // In line order, so the balance trigger sees each credit before the payouts it covers.
    await client.query(
      `INSERT INTO ledger.entries (movement_id, partner_id, kind, amount, created_at)
       SELECT 'mov_' || l.id, $1, p.kind, p.amount, l.at
         FROM seed_movements l
         CROSS JOIN LATERAL (
           SELECT * FROM (VALUES
             (1, 'funding', -$2::numeric, true), (2, 'balance', $2::numeric, true),
             (1, 'balance', -10.45::numeric, false), (2, 'in_flight', 10.45::numeric, false)
           ) AS v(ord, kind, amount, credit)
           WHERE v.credit = l.credit
         ) AS p
        ORDER BY l.i, p.ord`,
      [partnerId, CREDIT_USD],
    );
    const xid = await client.query<{ xid: string }>(`SELECT pg_current_xact_id()::text AS xid`);
    await client.query("COMMIT");
    return BigInt(xid.rows[0]!.xid);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/**
 * The book's invariants for one partner: every movement sums to zero, and every account's balance is the
 * sum of its entries. Throws naming the first one broken.
 */
export async function checkLedgerInvariants(databaseUrl: string, partnerId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const unbalanced = await client.query<{ movement_id: string; total: string }>(
      `SELECT movement_id, sum(amount)::text AS total FROM ledger.entries WHERE partner_id = $1
        GROUP BY movement_id HAVING sum(amount) <> 0 LIMIT 1`,
      [partnerId],
    );
    const m = unbalanced.rows[0];
    if (m) throw new Error(`movement ${m.movement_id} sums to ${m.total}, not 0`);
    const drift = await client.query<{ kind: string; balance: string; total: string }>(
      `SELECT a.kind, a.balance::text AS balance, COALESCE(sum(e.amount), 0)::text AS total
         FROM ledger.accounts a LEFT JOIN ledger.entries e ON e.partner_id = a.partner_id AND e.kind = a.kind
        WHERE a.partner_id = $1 GROUP BY a.kind, a.balance HAVING a.balance <> COALESCE(sum(e.amount), 0)`,
      [partnerId],
    );
    const d = drift.rows[0];
    if (d) throw new Error(`account ${d.kind} holds ${d.balance}, its entries sum to ${d.total}`);
  } finally {
    await client.end();
  }
}

/**
 * Waits until the snapshot watermark (the oldest transaction still running) is above `xid`: from then on
 * the statement feed serves every entry that transaction wrote.
 */
export async function waitForWatermark(databaseUrl: string, xid: bigint, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await client.query<{ xmin: string }>(
        `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`,
      );
      if (BigInt(res.rows[0]!.xmin) > xid) return;
      if (Date.now() > deadline) {
        throw new Error(`the snapshot watermark stayed at or below ${xid} for ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}
