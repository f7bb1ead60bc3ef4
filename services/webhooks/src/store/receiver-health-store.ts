/**
 * Receiver health: each configuration's circuit breaker, operator pause and backlog (WebhookAdminService and
 * the backlog gauges). Not on the delivery path. Each receiver's backlog and oldest pending row are read from
 * the claim's partial index of pending rows, which carries created_at (migration 014), so the cost grows with
 * the backlog of the receivers listed, never with the size of the deliveries table.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { firstRow } from "@payouts/platform/database/first-row";
import type { ReceiverFigures } from "../domain/receiver-backlog.js";

export type CircuitState = ReceiverFigures["circuitState"];

export interface ReceiverHealthRow {
  readonly config_id: string;
  readonly partner_id: string;
  readonly url: string;
  readonly active: boolean;
  readonly paused: boolean;
  readonly circuit_state: CircuitState;
  readonly circuit_failures: number;
  readonly circuit_opened_at: Date | null;
  readonly circuit_retry_at: Date | null;
  /** Pending rows (bigint as text). */
  readonly pending: string;
  /** created_at of the oldest pending row, null when none. */
  readonly oldest_pending_at: Date | null;
  /** Rows with an attempt in flight (bigint as text). */
  readonly delivering: string;
}

/** The health columns of the configs row(s) named `alias`, each receiver's figures read through its indexes. */
const HEALTH = (alias: string) => `${alias}.config_id, ${alias}.partner_id, ${alias}.url, ${alias}.active,
  ${alias}.paused, ${alias}.circuit_state, ${alias}.circuit_failures, ${alias}.circuit_opened_at,
  ${alias}.circuit_retry_at, b.pending::text AS pending, b.oldest_pending_at,
  (SELECT count(*) FROM webhooks.deliveries f
    WHERE f.config_id = ${alias}.config_id AND f.status = 'delivering')::text AS delivering`;

const BACKLOG = (alias: string) => `CROSS JOIN LATERAL (
  SELECT count(*) AS pending, min(p.created_at) AS oldest_pending_at FROM webhooks.deliveries p
   WHERE p.config_id = ${alias}.config_id AND p.status = 'pending') b`;

export interface ReceiverHealthFilter {
  readonly partnerId: string | undefined;
  /** Only receivers with at least one pending row. */
  readonly withBacklog: boolean;
  /** Only receivers whose circuit is open or half-open. */
  readonly circuitOpen: boolean;
  /** The last config id of the previous page. */
  readonly after: string | undefined;
  readonly limit: number;
}

/** Receivers by config id (time-ordered, so oldest first), with their circuit, pause and backlog. */
export async function listReceiverHealth(
  q: Queryable,
  f: ReceiverHealthFilter,
): Promise<ReceiverHealthRow[]> {
  const res = await q.query<ReceiverHealthRow>(
    `SELECT ${HEALTH("c")} FROM webhooks.configs c ${BACKLOG("c")}
      WHERE ($1::text IS NULL OR c.partner_id = $1) AND ($2::text IS NULL OR c.config_id > $2)
        AND (NOT $3 OR b.pending > 0) AND (NOT $4 OR c.circuit_state <> 'closed')
      ORDER BY c.config_id LIMIT $5`,
    [f.partnerId ?? null, f.after ?? null, f.withBacklog, f.circuitOpen, f.limit],
  );
  return res.rows;
}

/**
 * Sets the operator's pause of one receiver and answers its health; undefined when there is no such
 * config. A paused receiver's rows stay pending and are not claimed; the circuit breaker is left as it is.
 */
export function setReceiverPaused(
  q: Queryable,
  configId: string,
  paused: boolean,
  now: Date,
): Promise<ReceiverHealthRow | undefined> {
  return firstRow<ReceiverHealthRow>(
    q,
    `WITH changed AS (
       UPDATE webhooks.configs
          SET paused = $2, updated_at = CASE WHEN paused = $2 THEN updated_at ELSE $3 END
        WHERE config_id = $1
        RETURNING *
     )
     SELECT ${HEALTH("changed")} FROM changed ${BACKLOG("changed")}`,
    [configId, paused, now],
  );
}

/**
 * Every receiver that has a backlog, an open or half-open circuit, or an operator's pause (the others add
 * nothing to the gauges). One pass over the pending rows' index, config by config.
 */
export async function receiverBacklogs(q: Queryable): Promise<ReceiverFigures[]> {
  const res = await q.query<
    Pick<
      ReceiverHealthRow,
      "config_id" | "partner_id" | "active" | "paused" | "circuit_state" | "pending"
    > & {
      readonly oldest_pending_at: Date | null;
    }
  >(
    `SELECT c.config_id, c.partner_id, c.active, c.paused, c.circuit_state, b.pending::text AS pending,
            b.oldest_pending_at
       FROM webhooks.configs c ${BACKLOG("c")}
      WHERE b.pending > 0 OR c.circuit_state <> 'closed' OR c.paused`,
  );
  return res.rows.map((row) => ({
    configId: row.config_id,
    partnerId: row.partner_id,
    active: row.active,
    paused: row.paused,
    circuitState: row.circuit_state,
    pending: Number(row.pending),
    oldestPendingAt: row.oldest_pending_at,
  }));
}
