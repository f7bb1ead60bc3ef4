import type { Queryable } from "@payouts/platform/database/database";
import { firstRow } from "@payouts/platform/database/first-row";
import type { ClaimedDelivery } from "./delivery-queue-store.js";

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
  /** The batch an item event belongs to (TransactionEvent.batch_id); undefined for every other event. */
  readonly batchId?: string | undefined;
}

export const COLUMNS = `delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, status, attempts,
  next_attempt_at, last_status_code, last_error, delivered_at, response_body, created_at`;

/**
 * Records event ids as consumed and answers those that were not seen before: an event redelivered by the
 * bus then creates nothing, not even for configurations created since. One statement for a whole batch.
 */
export async function markEventsProcessed(
  db: Queryable,
  events: readonly { eventId: string; eventType: string; txId: string }[],
  now: Date,
): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const res = await db.query<{ event_id: string }>(
    `INSERT INTO webhooks.processed_events (event_id, event_type, tx_id, processed_at)
     SELECT e.event_id, e.event_type, e.tx_id, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS e(event_id, event_type, tx_id)
     ON CONFLICT (event_id) DO NOTHING
     RETURNING event_id`,
    [events.map((e) => e.eventId), events.map((e) => e.eventType), events.map((e) => e.txId), now],
  );
  return new Set(res.rows.map((r) => r.event_id));
}

/**
 * Deliveries the storing process sends itself at once (see insertDeliveries): claimed by `workerId` in
 * the statement that stores them, as claimDueDeliveries would claim them (attempt 1, lease from the
 * statement's clock), for at most `limit` rows and at most `perConfigLimit` live claims per configuration.
 */
export interface PreclaimOptions {
  readonly workerId: string;
  readonly leaseMs: number;
  readonly limit: number;
  readonly perConfigLimit: number;
  /** This worker's claims whose receiver has answered: they do not count against the cap (as in the claim). */
  readonly answered: readonly string[];
  /** Configurations whose cap this worker raised above `perConfigLimit` (as in the claim). */
  readonly raisedLimits?: Readonly<Record<string, number>>;
  /** Most of one partner's deliveries in flight from this worker (as in the claim); unset: `limit`. */
  readonly perPartnerLimit?: number;
}

/**
 * Stores new deliveries, any number in one statement; one that exists for its (event, config) is left
 * alone. Bodies travel as hex and times as ISO text, so both database adapters bind the arrays alike.
 * The statement names its columns (no `*`), so each connection prepares it once (statement-names.ts):
 * planned anew on every call it cost PostgreSQL more than running it.
 *
 * With `preclaim`, the rows a claim would take at once are stored already claimed and answered, so the
 * storing process sends them without a claim statement: due now, of an active configuration that is not
 * paused and whose circuit is closed, with no earlier unsettled delivery of their (config, tx) stored or in
 * this batch (the ordering rule of ordering.ts), within the configuration's cap of live claims and the
 * partner's bound of this worker's claims, in batch order up to `limit`; never a batch.completed row, which
 * waits for its items' deliveries (ordering.ts `batchCompletedHold`). The others are stored pending for
 * the claim. Nothing else changes: a process that
 * dies after the commit has its claims released by releaseAbandonedClaims like any other.
 */
export async function insertDeliveries(
  db: Queryable,
  deliveries: readonly NewDelivery[],
  now: Date,
  preclaim?: PreclaimOptions,
): Promise<ClaimedDelivery[]> {
  if (deliveries.length === 0) return [];
  const column = <T>(pick: (d: NewDelivery) => T) => deliveries.map(pick);
  const res = await db.query<ClaimedDelivery>(
    `WITH input AS (
       SELECT d.delivery_id, d.event_id, d.config_id, d.partner_id, d.tx_id, d.sequence, d.event_type, d.body,
              d.next_attempt_at, d.traceparent, d.occurred_at, d.batch_id, d.ord
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::text[], $9::text[], $10::text[], $11::text[], $20::text[]) WITH ORDINALITY
         AS d(delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body, next_attempt_at,
              traceparent, occurred_at, batch_id, ord)
     ), ready AS (
       SELECT i.delivery_id, i.config_id, i.ord,
              row_number() OVER (PARTITION BY i.config_id ORDER BY i.ord) AS config_turn
         FROM input i JOIN webhooks.configs cfg ON cfg.config_id = i.config_id
        WHERE $14::int > 0
          AND cfg.active AND NOT cfg.paused AND cfg.circuit_state = 'closed'
          AND i.next_attempt_at::timestamptz <= $12
          AND NOT EXISTS (
            SELECT 1 FROM webhooks.deliveries e
             WHERE e.config_id = i.config_id AND e.tx_id = i.tx_id
               AND e.sequence < i.sequence::bigint
               AND e.status NOT IN ('delivered', 'dead'))
          AND NOT EXISTS (
            SELECT 1 FROM input j
             WHERE j.config_id = i.config_id AND j.tx_id = i.tx_id AND j.sequence::bigint < i.sequence::bigint)
          -- batch.completed waits for its items' deliveries (ordering.ts batchCompletedHold): the claim decides.
          AND i.event_type <> 'batch.completed'
     ), live AS (
       SELECT f.config_id, count(*) AS in_flight FROM webhooks.deliveries f
        WHERE $14::int > 0 AND f.status = 'delivering' AND f.lease_expires_at > statement_timestamp()
          AND f.delivery_id <> ALL($17::text[])
        GROUP BY f.config_id
     ), mine AS (
       SELECT m.partner_id, count(*) AS in_flight FROM webhooks.deliveries m
        WHERE $14::int > 0 AND m.status = 'delivering' AND m.claimed_by = $13
          AND m.lease_expires_at > statement_timestamp() AND m.delivery_id <> ALL($17::text[])
        GROUP BY m.partner_id
     ), within_cap AS (
       SELECT r.delivery_id, r.ord, i.partner_id,
              row_number() OVER (PARTITION BY i.partner_id ORDER BY r.ord) AS partner_turn
         FROM ready r JOIN input i ON i.delivery_id = r.delivery_id
         LEFT JOIN live l ON l.config_id = r.config_id
        WHERE r.config_turn + coalesce(l.in_flight, 0) <= coalesce(($18::jsonb ->> r.config_id)::int, $15)
     ), chosen AS (
       SELECT w.delivery_id FROM within_cap w LEFT JOIN mine m ON m.partner_id = w.partner_id
        WHERE w.partner_turn + coalesce(m.in_flight, 0) <= $19
        ORDER BY w.ord
        LIMIT $14
     ), inserted AS (
       INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
         body, next_attempt_at, created_at, updated_at, traceparent, event_occurred_at, batch_id,
         status, attempts, claimed_by, lease_expires_at)
       SELECT d.delivery_id, d.event_id, d.config_id, d.partner_id, d.tx_id, d.sequence::bigint, d.event_type,
              decode(d.body, 'hex'), d.next_attempt_at::timestamptz, $12, $12, d.traceparent,
              d.occurred_at::timestamptz, d.batch_id,
              CASE WHEN c.delivery_id IS NULL THEN 'pending' ELSE 'delivering' END,
              CASE WHEN c.delivery_id IS NULL THEN 0 ELSE 1 END,
              CASE WHEN c.delivery_id IS NULL THEN NULL ELSE $13 END,
              CASE WHEN c.delivery_id IS NULL THEN NULL
                   ELSE statement_timestamp() + $16 * interval '1 millisecond' END
         FROM input d LEFT JOIN chosen c ON c.delivery_id = d.delivery_id
        ORDER BY d.ord
       ON CONFLICT (event_id, config_id) DO NOTHING
       RETURNING delivery_id, event_id, event_type, tx_id, config_id, body, attempts, partner_id, traceparent,
                 event_occurred_at, kind, status
     )
     SELECT i.delivery_id, i.event_id, i.event_type, i.tx_id, i.config_id, i.body, i.attempts,
            cfg.url, cfg.secret_sealed, cfg.previous_secret_sealed, cfg.previous_secret_expires_at,
            cfg.basic_auth_username, cfg.basic_auth_sealed,
            i.partner_id, i.traceparent, i.event_occurred_at, i.kind
       FROM inserted i JOIN webhooks.configs cfg ON cfg.config_id = i.config_id
      WHERE i.status = 'delivering'`,
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
      preclaim?.workerId ?? null,
      preclaim?.limit ?? 0,
      preclaim?.perConfigLimit ?? 0,
      preclaim?.leaseMs ?? 0,
      preclaim?.answered ?? [],
      JSON.stringify(preclaim?.raisedLimits ?? {}),
      preclaim?.perPartnerLimit ?? preclaim?.limit ?? 0,
      column((d) => d.batchId ?? null),
    ],
  );
  return res.rows;
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

export function findDelivery(
  db: Queryable,
  partnerId: string,
  deliveryId: string,
  options: { lock?: boolean } = {},
): Promise<DeliveryRow | undefined> {
  return firstRow<DeliveryRow>(
    db,
    `SELECT ${COLUMNS} FROM webhooks.deliveries WHERE partner_id = $1 AND delivery_id = $2 AND kind = 'event'
     ${options.lock ? "FOR UPDATE" : ""}`,
    [partnerId, deliveryId],
  );
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

/**
 * Adds to each batch's tally (webhooks.batch_tallies, ordering.ts `batchCompletedHold`): `itemsFinal`, the
 * final item events just consumed per batch, and `itemsExpected`, what a batch event just consumed says
 * there are. Call with fresh events only (markEventsProcessed), so an event redelivered by the bus is not
 * counted twice. One statement; rows are taken in batch id order, so two intakes never deadlock on them.
 */
export async function addToBatchTallies(
  db: Queryable,
  tallies: ReadonlyMap<string, { readonly itemsFinal: number; readonly itemsExpected?: number | undefined }>,
  now: Date,
): Promise<void> {
  if (tallies.size === 0) return;
  const ids = [...tallies.keys()].sort();
  await db.query(
    `INSERT INTO webhooks.batch_tallies (batch_id, items_final, items_expected, updated_at)
     SELECT t.batch_id, t.items_final, t.items_expected, $4
       FROM unnest($1::text[], $2::int[], $3::int[]) AS t(batch_id, items_final, items_expected)
      ORDER BY t.batch_id
     ON CONFLICT (batch_id) DO UPDATE
        SET items_final = webhooks.batch_tallies.items_final + excluded.items_final,
            items_expected = coalesce(excluded.items_expected, webhooks.batch_tallies.items_expected),
            updated_at = excluded.updated_at`,
    [
      ids,
      ids.map((id) => tallies.get(id)?.itemsFinal ?? 0),
      ids.map((id) => tallies.get(id)?.itemsExpected ?? null),
      now,
    ],
  );
}
