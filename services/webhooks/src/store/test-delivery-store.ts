/**
 * Test notifications as delivery rows of kind `test` (migration 006): queued like any delivery, so they
 * go through the same claim, caps and fair ranking, then read back and deleted by the TestConfig call.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { firstRow } from "@payouts/platform/database/first-row";

export interface NewTestDelivery {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly configId: string;
  readonly partnerId: string;
  readonly eventType: string;
  readonly body: Uint8Array;
  readonly now: Date;
}

/** Due now; its own event id as transaction id, so the ordering rule never holds it back. */
export async function insertTestDelivery(db: Queryable, test: NewTestDelivery): Promise<void> {
  await db.query(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
       body, next_attempt_at, created_at, updated_at, kind)
     VALUES ($1, $2, $3, $4, $2, 0, $5, $6, $7, $7, $7, 'test')`,
    [
      test.deliveryId,
      test.eventId,
      test.configId,
      test.partnerId,
      test.eventType,
      Buffer.from(test.body),
      test.now,
    ],
  );
}

export interface TestDeliveryState {
  readonly status: "pending" | "delivering" | "delivered" | "dead";
  readonly last_status_code: number | null;
  readonly last_error: string | null;
  readonly response_body: string | null;
  readonly latency_ms: number | null;
}

export function readTestDelivery(db: Queryable, deliveryId: string): Promise<TestDeliveryState | undefined> {
  return firstRow<TestDeliveryState>(
    db,
    `SELECT d.status, d.last_status_code, d.last_error, d.response_body,
            (SELECT a.latency_ms FROM webhooks.delivery_attempts a
              WHERE a.delivery_id = d.delivery_id ORDER BY a.attempt DESC LIMIT 1) AS latency_ms
       FROM webhooks.deliveries d WHERE d.delivery_id = $1 AND d.kind = 'test'`,
    [deliveryId],
  );
}

/** Deletes a test row; with `onlyPending`, only if no worker has claimed it yet. True when deleted. */
export async function deleteTestDelivery(
  db: Queryable,
  deliveryId: string,
  options: { onlyPending?: boolean } = {},
): Promise<boolean> {
  const res = await db.query(
    `DELETE FROM webhooks.deliveries WHERE delivery_id = $1 AND kind = 'test'
       ${options.onlyPending ? "AND status = 'pending'" : ""}`,
    [deliveryId],
  );
  return res.rowCount > 0;
}

/** Test rows nobody read back (their caller went away), ten minutes on. */
export async function pruneTestDeliveries(db: Queryable): Promise<number> {
  const res = await db.query(
    `DELETE FROM webhooks.deliveries
      WHERE kind = 'test' AND status <> 'delivering' AND created_at < statement_timestamp() - interval '10 minutes'`,
  );
  return res.rowCount;
}
