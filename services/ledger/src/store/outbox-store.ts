/**
 * SQL of ledger.outbox and the relay lease. Rows are written in the same database transaction as the
 * state change they announce; the relay selects rows not yet published (never "id > last seen", which
 * skips rows whose sequence value was taken before an earlier-committing transaction's).
 */
import type { Queryable } from "@payouts/platform/database/database";
import type { Statement } from "./statement.js";

/**
 * One outbox event. A transaction's events carry its txId; any other event (a closed statement day)
 * carries an eventKey instead. Either one is the bus key and, with sequence, unique.
 */
export interface OutboxRow {
  readonly id: string;
  readonly eventId: string;
  readonly txId: string;
  readonly eventKey?: string;
  readonly sequence: number;
  readonly eventType: string;
  readonly payload: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
}

/** The INSERT of one outbox row, as a part of `st` (written with the state change it announces). */
export function addOutboxEvent(st: Statement, row: Omit<OutboxRow, "id">, name = "outbox_new"): string {
  const v = (value: unknown) => st.p(value);
  return st.with(
    name,
    `INSERT INTO ledger.outbox (event_id, tx_id, sequence, event_type, payload, headers)
     VALUES (${v(row.eventId)}, ${v(row.txId)}, ${v(row.sequence)}, ${v(row.eventType)},
       ${v(Buffer.from(row.payload))}, ${v(JSON.stringify(row.headers))})`,
  );
}

/** Writes an event that is not a transaction's, ordered and keyed by `eventKey` (inside the caller's transaction). */
export async function insertKeyedOutboxEvent(
  q: Queryable,
  row: Omit<OutboxRow, "id" | "txId" | "eventKey"> & { readonly eventKey: string },
): Promise<void> {
  await q.query(
    `INSERT INTO ledger.outbox (event_id, event_key, sequence, event_type, payload, headers)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      row.eventId,
      row.eventKey,
      row.sequence,
      row.eventType,
      Buffer.from(row.payload),
      JSON.stringify(row.headers),
    ],
  );
}

/** The bus key of an outbox event: its transaction, or its own key. */
export function busKey(row: Pick<OutboxRow, "txId" | "eventKey">): string {
  return row.eventKey ?? row.txId;
}

export async function unpublishedEvents(q: Queryable, limit: number): Promise<OutboxRow[]> {
  const res = await q.query<{
    id: string;
    event_id: string;
    tx_id: string | null;
    event_key: string | null;
    sequence: number;
    event_type: string;
    payload: Uint8Array;
    headers: Record<string, string>;
  }>(
    `SELECT id, event_id, tx_id, event_key, sequence, event_type, payload, headers
       FROM ledger.outbox WHERE published_at IS NULL
      ORDER BY created_at, id LIMIT $1`,
    [limit],
  );
  return res.rows.map((r) => ({
    id: String(r.id),
    eventId: r.event_id,
    txId: r.tx_id ?? "",
    ...(r.event_key === null ? {} : { eventKey: r.event_key }),
    sequence: r.sequence,
    eventType: r.event_type,
    payload: new Uint8Array(r.payload),
    headers: r.headers,
  }));
}

export async function markPublished(q: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query(
    "UPDATE ledger.outbox SET published_at = clock_timestamp() WHERE id = ANY($1::bigint[]) AND published_at IS NULL",
    [ids],
  );
}

/**
 * Takes or renews the named lease for `holder` when it is free, expired or already ours. Times are the
 * database's, so relays on hosts with skewed clocks agree on expiry.
 */
export async function acquireLease(
  q: Queryable,
  name: string,
  holder: string,
  leaseMs: number,
): Promise<boolean> {
  const res = await q.query(
    `INSERT INTO ledger.relay_lease AS l (name, holder, expires_at)
     VALUES ($1, $2, now() + $3::double precision * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
      WHERE l.holder = EXCLUDED.holder OR l.expires_at < now()
     RETURNING holder`,
    [name, holder, leaseMs],
  );
  return res.rows.length === 1;
}

export async function releaseLease(q: Queryable, name: string, holder: string): Promise<void> {
  await q.query("UPDATE ledger.relay_lease SET expires_at = now() WHERE name = $1 AND holder = $2", [
    name,
    holder,
  ]);
}

/** Unpublished events and the age of the oldest, by the database's clock (the outbox lag gauge). */
export async function outboxBacklog(
  q: Queryable,
): Promise<{ unpublished: number; oldestAgeSeconds: number }> {
  const res = await q.query<{ unpublished: string | number; oldest_age_s: string | number | null }>(
    `SELECT count(*) AS unpublished,
            EXTRACT(EPOCH FROM (clock_timestamp() - min(created_at))) AS oldest_age_s
       FROM ledger.outbox WHERE published_at IS NULL`,
  );
  const row = res.rows[0];
  return {
    unpublished: Number(row?.unpublished ?? 0),
    oldestAgeSeconds: Math.max(0, Number(row?.oldest_age_s ?? 0)),
  };
}
