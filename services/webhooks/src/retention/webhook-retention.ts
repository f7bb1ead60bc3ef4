/**
 * The dispatcher's retention job. Deleted, in batches:
 *   - delivered deliveries WEBHOOK_RETENTION_DELIVERED_DAYS after their delivery, with their attempts
 *     (attempts first, so each table's count is exact);
 *   - processed events WEBHOOK_RETENTION_PROCESSED_EVENTS_DAYS after they were consumed, once no delivery
 *     row of theirs is left;
 *   - batch tallies (ordering.ts `batchCompletedHold`) as long after their last event. A batch.completed still
 *     waiting then for item events that never came is no longer held by the count.
 * Never deleted: pending, in-flight and dead deliveries (dead ones stay visible and redeliverable) and
 * their attempts. The per-transaction ordering rule looks only at earlier rows that are neither delivered
 * nor dead, so removing delivered rows never lets an event overtake another. A processed event is the
 * intake's memory that an event was seen: it must outlive every chance of the bus delivering that event
 * again (keep the setting above the topic's retention), or a replayed old event would be notified twice.
 */
import { parse } from "@payouts/platform/config/env-config";
import { daysBefore, type RetentionJob, type RetentionRule } from "@payouts/platform/retention/retention-job";
import {
  createConfiguredRetentionJob,
  type RetentionJobContext,
} from "@payouts/platform/retention/retention-settings";

const ruleSpec = {
  deliveredDays: {
    env: "WEBHOOK_RETENTION_DELIVERED_DAYS",
    doc: "days a delivered delivery and its attempts are kept after delivery (0 = forever)",
    parse: parse.nonNegativeInt,
    default: 30,
  },
  processedEventsDays: {
    env: "WEBHOOK_RETENTION_PROCESSED_EVENTS_DAYS",
    doc: "days a consumed event id is remembered once its deliveries are gone (0 = forever)",
    parse: parse.nonNegativeInt,
    default: 30,
  },
} as const;

const DELIVERED_BEFORE_CUTOFF = "d.status = 'delivered' AND d.delivered_at < $1";

export function webhookRetentionRules(deliveredDays: number, processedEventsDays: number): RetentionRule[] {
  return [
    {
      table: "webhooks.delivery_attempts",
      cutoff: daysBefore(deliveredDays),
      deleteBatch: `DELETE FROM webhooks.delivery_attempts a WHERE ctid IN (
          SELECT x.ctid FROM webhooks.delivery_attempts x
            JOIN webhooks.deliveries d ON d.delivery_id = x.delivery_id
           WHERE ${DELIVERED_BEFORE_CUTOFF} LIMIT $2)
        AND EXISTS (SELECT 1 FROM webhooks.deliveries d
                     WHERE d.delivery_id = a.delivery_id AND ${DELIVERED_BEFORE_CUTOFF})`,
    },
    {
      table: "webhooks.deliveries",
      cutoff: daysBefore(deliveredDays),
      deleteBatch: `DELETE FROM webhooks.deliveries d WHERE ctid IN (
          SELECT ctid FROM webhooks.deliveries d WHERE ${DELIVERED_BEFORE_CUTOFF} LIMIT $2)
        AND ${DELIVERED_BEFORE_CUTOFF}`,
    },
    {
      table: "webhooks.processed_events",
      cutoff: daysBefore(processedEventsDays),
      deleteBatch: `DELETE FROM webhooks.processed_events p WHERE ctid IN (
          SELECT ctid FROM webhooks.processed_events p WHERE p.processed_at < $1
             AND NOT EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.event_id = p.event_id)
           LIMIT $2)
        AND p.processed_at < $1
        AND NOT EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.event_id = p.event_id)`,
    },
    {
      table: "webhooks.batch_tallies",
      cutoff: daysBefore(processedEventsDays),
      deleteBatch: `DELETE FROM webhooks.batch_tallies t WHERE ctid IN (
          SELECT ctid FROM webhooks.batch_tallies t WHERE t.updated_at < $1 LIMIT $2)
        AND t.updated_at < $1`,
    },
  ];
}

export function createWebhookRetention(context: RetentionJobContext): RetentionJob {
  const loop = { intervalEnv: "WEBHOOK_RETENTION_INTERVAL_MS", batchSizeEnv: "WEBHOOK_RETENTION_BATCH_SIZE" };
  return createConfiguredRetentionJob(
    { name: "webhook-retention", loop, ruleSpec },
    (settings) => webhookRetentionRules(settings.deliveredDays, settings.processedEventsDays),
    context,
  );
}
