/**
 * The ledger's retention job: published outbox rows after OUTBOX_RETENTION_DAYS, and idempotency keys once
 * they expired (IDEMPOTENCY_KEY_TTL_MS after they were stored; an expired key is already ignored by
 * executePayout). Never touched: unpublished outbox rows (the relay's work), live keys, operator credit keys
 * (stored without expires_at: a late retry of a credit must not credit again), and the book itself
 * (transactions, history, movements, entries are kept for good).
 */
import { parse } from "@payouts/platform/config/env-config";
import { daysBefore, type RetentionJob, type RetentionRule } from "@payouts/platform/retention/retention-job";
import {
  createConfiguredRetentionJob,
  type RetentionJobContext,
} from "@payouts/platform/retention/retention-settings";

const ruleSpec = {
  outboxDays: {
    env: "OUTBOX_RETENTION_DAYS",
    doc: "days a published outbox row is kept after publication (0 = forever)",
    parse: parse.nonNegativeInt,
    default: 7,
  },
} as const;

export function ledgerRetentionRules(outboxDays: number): RetentionRule[] {
  return [
    {
      table: "ledger.outbox",
      cutoff: daysBefore(outboxDays),
      deleteBatch: `DELETE FROM ledger.outbox WHERE ctid IN (
          SELECT ctid FROM ledger.outbox WHERE published_at < $1 ORDER BY published_at LIMIT $2)
        AND published_at < $1`,
    },
    {
      table: "ledger.idempotency_keys",
      cutoff: (now) => now,
      deleteBatch: `DELETE FROM ledger.idempotency_keys WHERE ctid IN (
          SELECT ctid FROM ledger.idempotency_keys WHERE expires_at <= $1 LIMIT $2)
        AND expires_at <= $1`,
    },
  ];
}

export function createLedgerRetention(context: RetentionJobContext): RetentionJob {
  const loop = { intervalEnv: "LEDGER_RETENTION_INTERVAL_MS", batchSizeEnv: "LEDGER_RETENTION_BATCH_SIZE" };
  return createConfiguredRetentionJob(
    { name: "ledger-retention", loop, ruleSpec },
    (settings) => ledgerRetentionRules(settings.outboxDays),
    context,
  );
}
