import type { Queryable } from "@payouts/platform/database/database";

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

/**
 * Records an event id as consumed. False when it was already seen: a redelivered event then creates
 * nothing, not even for configurations created since.
 */
export async function markEventProcessed(
  db: Queryable,
  event: { eventId: string; eventType: string; txId: string },
  now: Date,
): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO webhooks.processed_events (event_id, event_type, tx_id, processed_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (event_id) DO NOTHING`,
    [event.eventId, event.eventType, event.txId, now],
  );
  return res.rowCount > 0;
}

export async function insertDeliveries(
  db: Queryable,
  deliveries: readonly NewDelivery[],
  now: Date,
): Promise<void> {
  for (const d of deliveries) {
    await db.query(
      `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
         body, next_attempt_at, created_at, updated_at, traceparent, event_occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12)
       ON CONFLICT (event_id, config_id) DO NOTHING`,
      [
        d.deliveryId,
        d.eventId,
        d.configId,
        d.partnerId,
        d.txId,
        d.sequence.toString(),
        d.eventType,
        Buffer.from(d.body),
        d.nextAttemptAt,
        now,
        d.traceparent ?? null,
        d.occurredAt ?? null,
      ],
    );
  }
}

export interface DeliveryFilter {
  readonly partnerId: string;
  readonly txId?: string | undefined;
  readonly configId?: string | undefined;
  readonly status?: DeliveryStatus | undefined;
  readonly limit: number;
}

/** Newest first. */
export async function listDeliveries(db: Queryable, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  const res = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhooks.deliveries
     WHERE partner_id = $1 AND kind = 'event'
       AND ($2::text IS NULL OR tx_id = $2)
       AND ($3::text IS NULL OR config_id = $3)
       AND ($4::text IS NULL OR status = $4)
     ORDER BY created_at DESC, delivery_id DESC
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
