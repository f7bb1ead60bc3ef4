import type { Queryable } from "@payouts/platform/database/database";
import { type ClaimedDelivery, type ClaimSlots, claimedColumns } from "./delivery-queue-store.js";

export type DeliveryStatus = "pending" | "delivering" | "delivered" | "dead";

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "delivering", "delivered", "dead"];

export interface DeliveryRow {
  readonly delivery_id: string;
  readonly event_id: string;
  readonly config_id: string;
  readonly partner_id: string;
  readonly tx_id: string;
  readonly sequence: string;
  readonly event_type: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly next_attempt_at: Date;
  readonly last_status_code: number | null;
  readonly last_error: string | null;
  readonly delivered_at: Date | null;
  readonly response_body: string | null;
  readonly created_at: Date;
}

export interface AttemptRow {
  readonly delivery_id: string;
  readonly attempt: number;
  readonly status_code: number;
  readonly error: string | null;
  readonly latency_ms: number;
  readonly at: Date;
}

export interface NewDelivery {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly configId: string;
  readonly partnerId: string;
  readonly txId: string;
  readonly sequence: bigint;
  readonly eventType: string;
  readonly body: Uint8Array;
  readonly nextAttemptAt: Date;
  /** W3C trace context the attempts continue. */
  readonly traceparent?: string | undefined;
  readonly occurredAt?: Date | undefined;
}

export const COLUMNS = `delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, status, attempts,
  next_attempt_at, last_status_code, last_error, delivered_at, response_body, created_at`;

/** What storing new deliveries did: rows stored, and those of them claimed for this process at once. */
export interface StoredDeliveries {
  readonly stored: number;
  /** Rows stored already `delivering` for the claiming process (see storeEventDeliveries). */
  readonly claimed: ClaimedDelivery[];
  /** Configurations of the rows stored pending and due now: they wait for a claim pass. */
  readonly waiting: readonly string[];
}

/** An event consumed from the bus: recorded in the inbox whether or not it yields deliveries. */
export interface ConsumedEvent {
  readonly eventId: string;
  readonly eventType: string;
  readonly txId: string;
}

/**
 * Stores a batch of consumed events in ONE statement (one commit, no transaction around it): records their
 * ids in the inbox (`processed_events`) and stores the deliveries of the events not seen before — an event
 * redelivered by the bus creates nothing, not even for configurations created since; a delivery that
 * exists for its (event, config) is left alone. `deliveries` are those of every event of the batch; the
 * statement keeps the fresh events' ones. Bodies travel as hex and times as ISO text, so both database
 * adapters bind the arrays alike.
 *
 * With `claim`, a row is stored already claimed (`delivering`, attempt 1, leased to `claim.workerId`) when
 * it may go out at once, so a fresh event reaches its receiver without waiting for a claim pass and
 * without a second statement and commit: it is due now, its receiver has nothing due waiting (a fresh
 * event never overtakes a backlog: those rows go through the fair claim), the ordering rule lets it go
 * (no unsettled earlier event of its (tx, config), in the table or earlier in this batch; the claim's
 * predicate, ordering.ts), and its configuration has a slot left under `perConfigLimit` (live claims
 * counted as the claim counts them); at most `claim.limit` rows in all, in batch order. The others are
 * stored pending for the claim passes. The row is durable (committed) before it is sent.
 */
export async function storeEventDeliveries(
  db: Queryable,
  events: readonly ConsumedEvent[],
  deliveries: readonly NewDelivery[],
  now: Date,
  claim?: ClaimSlots,
): Promise<StoredDeliveries> {
  if (events.length === 0) return { stored: 0, claimed: [], waiting: [] };
  const column = <T>(pick: (d: NewDelivery) => T) => deliveries.map(pick);
  const res = await db.query<ClaimedDelivery & { status: string; due_now: boolean }>(
    `WITH fresh AS (
       INSERT INTO webhooks.processed_events (event_id, event_type, tx_id, processed_at)
       SELECT e.event_id, e.event_type, e.tx_id, $12
         FROM unnest($18::text[], $19::text[], $20::text[]) AS e(event_id, event_type, tx_id)
       ON CONFLICT (event_id) DO NOTHING
       RETURNING event_id
     ), input AS (
       SELECT d.*, d.sequence::bigint AS seq, d.next_attempt_at::timestamptz AS due
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                     $9::text[], $10::text[], $11::text[]) WITH ORDINALITY
           AS d(delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body, next_attempt_at,
                traceparent, occurred_at, ord)
        WHERE d.event_id IN (SELECT event_id FROM fresh)
     ), releasable AS (
       SELECT i.delivery_id, i.config_id, i.ord FROM input i
        WHERE $13::int > 0 AND i.due <= $12
          -- Index probes per row (LIMIT 1 keeps them probes, whatever the table's statistics say).
          AND (SELECT true FROM webhooks.deliveries p
                WHERE p.config_id = i.config_id AND p.status = 'pending' AND p.next_attempt_at <= $12
                LIMIT 1) IS NULL
          AND (SELECT true FROM webhooks.deliveries e
                WHERE e.config_id = i.config_id AND e.tx_id = i.tx_id AND e.sequence < i.seq
                  AND e.status NOT IN ('delivered', 'dead')
                LIMIT 1) IS NULL
          AND NOT EXISTS (SELECT 1 FROM input j
                           WHERE j.config_id = i.config_id AND j.tx_id = i.tx_id AND j.seq < i.seq)
     ), slotted AS (
       SELECT r.delivery_id, r.ord,
              row_number() OVER (PARTITION BY r.config_id ORDER BY r.ord)
                + (SELECT count(*) FROM webhooks.deliveries f
                    WHERE f.config_id = r.config_id AND f.status = 'delivering'
                      AND f.lease_expires_at > statement_timestamp()
                      AND f.delivery_id <> ALL($15::text[])) AS slot
         FROM releasable r
     ), claimed AS (
       SELECT s.delivery_id FROM slotted s WHERE s.slot <= $14 ORDER BY s.ord LIMIT $13
     ), inserted AS (
       INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
         body, next_attempt_at, created_at, updated_at, traceparent, event_occurred_at,
         status, attempts, lease_expires_at, claimed_by)
       SELECT d.delivery_id, d.event_id, d.config_id, d.partner_id, d.tx_id, d.seq, d.event_type,
              decode(d.body, 'hex'), d.due, $12, $12, d.traceparent, d.occurred_at::timestamptz,
              CASE WHEN c.delivery_id IS NULL THEN 'pending' ELSE 'delivering' END,
              CASE WHEN c.delivery_id IS NULL THEN 0 ELSE 1 END,
              CASE WHEN c.delivery_id IS NULL THEN NULL
                   ELSE statement_timestamp() + $16 * interval '1 millisecond' END,
              CASE WHEN c.delivery_id IS NULL THEN NULL ELSE $17 END
         FROM input d LEFT JOIN claimed c ON c.delivery_id = d.delivery_id
       ON CONFLICT (event_id, config_id) DO NOTHING
       RETURNING *
     )
     SELECT ins.status, ins.next_attempt_at <= $12 AS due_now, ${claimedColumns("ins", "cfg")}
       FROM inserted ins LEFT JOIN webhooks.configs cfg ON cfg.config_id = ins.config_id AND ins.status = 'delivering'`,
    [
      column((d) => d.deliveryId),
      column((d) => d.eventId),
      column((d) => d.configId),
      column((d) => d.partnerId),
      column((d) => d.txId),
      column((d) => d.sequence.toString()),
      column((d) => d.eventType),
      column((d) => Buffer.from(d.body).toString("hex")),
      column((d) => d.nextAttemptAt.toISOString()),
      column((d) => d.traceparent ?? null),
      column((d) => d.occurredAt?.toISOString() ?? null),
      now,
      claim?.limit ?? 0,
      claim?.perConfigLimit ?? 0,
      claim?.answered ?? [],
      claim?.leaseMs ?? 0,
      claim?.workerId ?? null,
      events.map((e) => e.eventId),
      events.map((e) => e.eventType),
      events.map((e) => e.txId),
    ],
  );
  return {
    stored: res.rows.length,
    claimed: res.rows
      .filter((r) => r.status === "delivering")
      .map(({ status: _status, due_now: _due, ...row }) => row),
    waiting: [
      ...new Set(res.rows.filter((r) => r.status === "pending" && r.due_now).map((r) => r.config_id)),
    ],
  };
}

export interface DeliveryFilter {
  readonly partnerId: string;
  readonly txId?: string | undefined;
  readonly configId?: string | undefined;
  readonly status?: DeliveryStatus | undefined;
  readonly limit: number;
}

/**
 * Newest first. Deliveries stored by one intake batch share their creation time (and the time part of
 * their ids), so within it a transaction's later event comes first by its sequence.
 */
export async function listDeliveries(db: Queryable, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  const res = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhooks.deliveries
     WHERE partner_id = $1 AND kind = 'event'
       AND ($2::text IS NULL OR tx_id = $2)
       AND ($3::text IS NULL OR config_id = $3)
       AND ($4::text IS NULL OR status = $4)
     ORDER BY created_at DESC, sequence DESC, delivery_id DESC
     LIMIT $5`,
    [filter.partnerId, filter.txId ?? null, filter.configId ?? null, filter.status ?? null, filter.limit],
  );
  return res.rows;
}

export async function findDelivery(
  db: Queryable,
  partnerId: string,
  deliveryId: string,
  options: { lock?: boolean } = {},
): Promise<DeliveryRow | undefined> {
  const res = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhooks.deliveries WHERE partner_id = $1 AND delivery_id = $2 AND kind = 'event'
     ${options.lock ? "FOR UPDATE" : ""}`,
    [partnerId, deliveryId],
  );
  return res.rows[0];
}

export async function attemptsOf(db: Queryable, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const res = await db.query<AttemptRow>(
    `SELECT delivery_id, attempt, status_code, error, latency_ms, at FROM webhooks.delivery_attempts
     WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt`,
    [deliveryIds],
  );
  return res.rows;
}

/** Makes a delivery due now again; its event id and body stay what they were. */
export async function scheduleNow(db: Queryable, deliveryId: string, now: Date): Promise<DeliveryRow> {
  const res = await db.query<DeliveryRow>(
    `UPDATE webhooks.deliveries SET status = 'pending', next_attempt_at = $2, delivered_at = NULL,
       lease_expires_at = NULL, claimed_by = NULL, updated_at = $2
     WHERE delivery_id = $1
     RETURNING ${COLUMNS}`,
    [deliveryId, now],
  );
  return res.rows[0]!;
}
