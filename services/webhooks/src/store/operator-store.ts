/**
 * Operators' reads and switches across partners (WebhookAdminService). Not on the delivery path: the
 * workers never call these. Delivery and config ids are time-ordered (services/platform/src/ids.ts) and created with
 * their row's created_at, so "newest first" pages by id on the primary keys.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { firstRow } from "@payouts/platform/database/first-row";
import { COLUMNS as CONFIG_COLUMNS, type ConfigRow } from "./config-store.js";
import { COLUMNS as DELIVERY_COLUMNS, type DeliveryRow, type DeliveryStatus } from "./delivery-store.js";

export interface OperatorDeliveryFilter {
  readonly partnerId: string | undefined;
  readonly txId: string | undefined;
  readonly configId: string | undefined;
  readonly status: DeliveryStatus | undefined;
  readonly eventType: string | undefined;
  /** The last delivery id of the previous page. */
  readonly before: string | undefined;
  readonly limit: number;
}

/** Event deliveries (never test notifications), newest first. */
export async function searchDeliveries(q: Queryable, f: OperatorDeliveryFilter): Promise<DeliveryRow[]> {
  const where = ["d.kind = 'event'"];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replaceAll("?", `$${params.length}`));
  };
  if (f.partnerId) add("d.partner_id = ?", f.partnerId);
  if (f.txId) {
    add("d.tx_id = ?", f.txId);
    // Reaches the rows through (config_id, tx_id, sequence), the ordering index, config by config.
    where.push(
      `d.config_id IN (SELECT config_id FROM webhooks.configs ${f.partnerId ? "WHERE partner_id = $1" : ""})`,
    );
  }
  if (f.configId) add("d.config_id = ?", f.configId);
  if (f.status) add("d.status = ?", f.status);
  if (f.eventType) add("d.event_type = ?", f.eventType);
  if (f.before) add("d.delivery_id < ?", f.before);
  params.push(f.limit);
  const columns = DELIVERY_COLUMNS.split(",")
    .map((c) => `d.${c.trim()}`)
    .join(", ");
  const res = await q.query<DeliveryRow>(
    `SELECT ${columns} FROM webhooks.deliveries d WHERE ${where.join(" AND ")}
      ORDER BY d.delivery_id DESC LIMIT $${params.length}`,
    params,
  );
  return res.rows;
}

/** One event delivery of any partner; `lock` for read-modify-write. */
export function findAnyDelivery(
  q: Queryable,
  deliveryId: string,
  options: { lock?: boolean } = {},
): Promise<DeliveryRow | undefined> {
  return firstRow<DeliveryRow>(
    q,
    `SELECT ${DELIVERY_COLUMNS} FROM webhooks.deliveries WHERE delivery_id = $1 AND kind = 'event'
     ${options.lock ? "FOR UPDATE" : ""}`,
    [deliveryId],
  );
}

export interface DeliveryStatsRow {
  readonly pending: string;
  readonly retrying: string;
  readonly pending_disabled: string;
  readonly oldest_due: Date | null;
  readonly delivering: string;
  readonly dead: string;
  readonly delivered_last_hour: string;
  readonly delivered_last_day: string;
}

/** Counts by outcome; each figure is read through a partial index of its status. */
export async function deliveryStats(q: Queryable, now: Date): Promise<DeliveryStatsRow> {
  const res = await q.query<DeliveryStatsRow>(
    `SELECT p.pending::text, p.retrying::text, p.pending_disabled::text, p.oldest_due,
            (SELECT count(*) FROM webhooks.deliveries WHERE status = 'delivering' AND kind = 'event')::text
              AS delivering,
            (SELECT count(*) FROM webhooks.deliveries WHERE status = 'dead' AND kind = 'event')::text AS dead,
            (SELECT count(*) FROM webhooks.deliveries
              WHERE status = 'delivered' AND kind = 'event' AND delivered_at >= $1::timestamptz - interval '1 hour')::text
              AS delivered_last_hour,
            (SELECT count(*) FROM webhooks.deliveries
              WHERE status = 'delivered' AND kind = 'event' AND delivered_at >= $1::timestamptz - interval '1 day')::text
              AS delivered_last_day
       FROM (SELECT count(*) AS pending,
                    count(*) FILTER (WHERE d.attempts > 0) AS retrying,
                    count(*) FILTER (WHERE NOT c.active) AS pending_disabled,
                    min(d.next_attempt_at) FILTER (WHERE c.active AND d.next_attempt_at <= $1) AS oldest_due
               FROM webhooks.deliveries d JOIN webhooks.configs c ON c.config_id = d.config_id
              WHERE d.status = 'pending' AND d.kind = 'event') p`,
    [now],
  );
  return res.rows[0]!;
}

export type ConfigWithCounts = ConfigRow & { readonly pending: string; readonly dead: string };

const withCounts = (alias: string) => `${CONFIG_COLUMNS.split(",")
  .map((c) => `${alias}.${c.trim()}`)
  .join(", ")},
  (SELECT count(*) FROM webhooks.deliveries d
    WHERE d.config_id = ${alias}.config_id AND d.status = 'pending' AND d.kind = 'event')::text AS pending,
  (SELECT count(*) FROM webhooks.deliveries d
    WHERE d.config_id = ${alias}.config_id AND d.status = 'dead' AND d.kind = 'event')::text AS dead`;

/** Configs of every partner (or one), oldest first, after config id `after`. */
export async function searchConfigs(
  q: Queryable,
  f: {
    readonly partnerId: string | undefined;
    readonly active: boolean | undefined;
    readonly after: string | undefined;
    readonly limit: number;
  },
): Promise<ConfigWithCounts[]> {
  const res = await q.query<ConfigWithCounts>(
    `SELECT ${withCounts("c")} FROM webhooks.configs c
      WHERE ($1::text IS NULL OR c.partner_id = $1) AND ($2::boolean IS NULL OR c.active = $2)
        AND ($3::text IS NULL OR c.config_id > $3)
      ORDER BY c.config_id LIMIT $4`,
    [f.partnerId ?? null, f.active ?? null, f.after ?? null, f.limit],
  );
  return res.rows;
}

/**
 * Switches a config on or off. Off: `disabled_reason` says why, and the config is marked as the operator's
 * doing, so the partner cannot switch it back on; on: the reason and the mark are cleared. Undefined when
 * there is no such config.
 */
export function setConfigActive(
  q: Queryable,
  configId: string,
  active: boolean,
  reason: string,
  now: Date,
): Promise<ConfigWithCounts | undefined> {
  return firstRow<ConfigWithCounts>(
    q,
    `WITH changed AS (
       UPDATE webhooks.configs
          SET active = $2, disabled_reason = CASE WHEN $2 THEN NULL ELSE $3 END, disabled_by_operator = NOT $2,
              updated_at = $4
        WHERE config_id = $1
        RETURNING *
     )
     SELECT ${withCounts("changed")} FROM changed`,
    [configId, active, reason, now],
  );
}
