/**
 * The retention jobs of the ledger and the webhook dispatcher on real PostgreSQL, with rows back-dated:
 * only finished, old rows go (published outbox rows, expired idempotency keys, delivered deliveries with
 * their attempts, processed events with no delivery left), in batches, counted per table on the metric;
 * unpublished outbox rows, live keys, pending/in-flight/dead deliveries and recent rows stay.
 */
import { metrics } from "@opentelemetry/api";
import { AggregationTemporality, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { createLedgerRetention } from "@payouts/ledger/internal/retention/ledger-retention";
import { migrate } from "@payouts/platform/database/migrate";
import { createLogger } from "@payouts/platform/logging/logger";
import { createWebhookRetention } from "@payouts/webhooks/internal/retention/webhook-retention";
import { WEBHOOKS_MIGRATIONS } from "@payouts/webhooks/webhooks-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  destination,
  type LedgerHarness,
  startLedgerHarness,
  waitFor,
} from "../ledger/support/ledger-harness.js";

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const reader = new TestReader();
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

async function deletedPerTable(): Promise<Record<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const out: Record<string, number> = {};
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== "payouts.retention.deleted.rows") continue;
      for (const point of metric.dataPoints) out[String(point.attributes.table)] = point.value as number;
    }
  }
  return out;
}

const logger = createLogger({ service: "retention-test", level: "silent" });
const DAY = "interval '1 day'";
let h: LedgerHarness;

beforeAll(async () => {
  h = await startLedgerHarness();
  await migrate(h.db, WEBHOOKS_MIGRATIONS);
});

afterAll(async () => {
  await h?.close();
});

const ids = async (sql: string) => (await h.db.query<{ id: string }>(sql)).rows.map((r) => r.id).sort();

describe("ledger retention", () => {
  it("deletes published outbox rows past retention and expired keys, in batches, and nothing else", async () => {
    const txIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await h.client.createTransaction({
        partnerId: "ptr_ret",
        customerId: "cus_1",
        destination: destination(),
      });
      txIds.push(created.transaction!.txId);
    }
    await waitFor("relay", () => (h.published.length >= 6 ? true : undefined));
    await h.module.stop();
    const [a, b, c, d, , f] = txIds.map((t) => `'${t}'`);
    // Published 8 days ago (gone), 6 days ago (kept), just now (kept); one old row never published (kept).
    await h.db.query(
      `UPDATE ledger.outbox SET published_at = now() - 8 * ${DAY} WHERE tx_id IN (${a}, ${b}, ${c})`,
    );
    await h.db.query(`UPDATE ledger.outbox SET published_at = now() - 6 * ${DAY} WHERE tx_id = ${d}`);
    await h.db.query(
      `UPDATE ledger.outbox SET published_at = NULL, created_at = now() - 30 * ${DAY} WHERE tx_id = ${f}`,
    );
    const key = (k: string, expiresSql: string) =>
      h.db.query(
        `INSERT INTO ledger.idempotency_keys (partner_id, route, idempotency_key, fingerprint, state, tx_id,
           error_reason, error_message, created_at, expires_at)
         VALUES ('ptr_ret', 'POST /executePayout', $1, 'fp', 'failed', 'tx_x', 'QUOTE_REQUIRED', 'm',
           (${expiresSql}) - 30 * ${DAY}, ${expiresSql})`,
        [k],
      );
    for (const k of ["old-1", "old-2", "old-3"]) await key(k, `now() - ${DAY}`);
    for (const k of ["live-1", "live-2"]) await key(k, `now() + ${DAY}`);

    const job = createLedgerRetention({
      db: h.db,
      env: { LEDGER_RETENTION_BATCH_SIZE: "2" },
      logger,
      now: () => new Date(),
    });
    expect(await job.runOnce()).toEqual({ "ledger.outbox": 3, "ledger.idempotency_keys": 3 });
    expect(await ids("SELECT tx_id AS id FROM ledger.outbox")).toEqual([...txIds.slice(3)].sort());
    expect(await ids("SELECT idempotency_key AS id FROM ledger.idempotency_keys")).toEqual([
      "live-1",
      "live-2",
    ]);
    expect(await job.runOnce()).toEqual({ "ledger.outbox": 0, "ledger.idempotency_keys": 0 });

    const counted = await deletedPerTable();
    expect(counted["ledger.outbox"]).toBe(3);
    expect(counted["ledger.idempotency_keys"]).toBe(3);
  });
});

describe("webhook retention", () => {
  it("deletes delivered deliveries past retention with their attempts, then their processed events", async () => {
    await h.db.query(
      `INSERT INTO webhooks.configs (config_id, partner_id, url, events) VALUES ('whc_1', 'ptr_w', 'http://r', '{*}')`,
    );
    // id, status, delivered (days ago), event processed (days ago), attempts
    const rows: Array<[string, string, number | null, number, number]> = [
      ["old_delivered_1", "delivered", 40, 40, 2],
      ["old_delivered_2", "delivered", 31, 41, 1],
      ["old_delivered_3", "delivered", 35, 35, 3],
      ["recent_delivered", "delivered", 5, 40, 1],
      ["old_pending", "pending", null, 40, 4],
      ["old_delivering", "delivering", null, 40, 1],
      ["old_dead", "dead", null, 40, 9],
    ];
    let sequence = 0;
    for (const [id, status, deliveredDaysAgo, processedDaysAgo, attempts] of rows) {
      sequence++;
      await h.db.query(
        `INSERT INTO webhooks.processed_events (event_id, event_type, tx_id, processed_at)
         VALUES ($1, 'transaction.success', 'tx_w', now() - $2 * ${DAY})`,
        [`evt_${id}`, processedDaysAgo],
      );
      await h.db.query(
        `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
           body, status, attempts, next_attempt_at, delivered_at, created_at, updated_at)
         VALUES ($1, $2, 'whc_1', 'ptr_w', 'tx_w', $3, 'transaction.success', '\\x7b7d', $4, $5,
           now() - 50 * ${DAY}, CASE WHEN $6::int IS NULL THEN NULL ELSE now() - $6::int * ${DAY} END,
           now() - 50 * ${DAY}, now() - 50 * ${DAY})`,
        [`whd_${id}`, `evt_${id}`, sequence, status, attempts, deliveredDaysAgo],
      );
      for (let n = 1; n <= attempts; n++) {
        await h.db.query(
          `INSERT INTO webhooks.delivery_attempts (delivery_id, attempt, status_code, latency_ms, at)
           VALUES ($1, $2, 500, 10, now() - 45 * ${DAY})`,
          [`whd_${id}`, n],
        );
      }
    }
    // An old processed event whose deliveries were never made (no matching config): nothing refers to it.
    await h.db.query(
      `INSERT INTO webhooks.processed_events (event_id, event_type, tx_id, processed_at)
       VALUES ('evt_no_delivery', 'transaction.success', 'tx_w', now() - 60 * ${DAY}),
              ('evt_recent_no_delivery', 'transaction.success', 'tx_w', now() - 2 * ${DAY})`,
    );

    // Batch tallies: one whose last event is past retention, one recent.
    await h.db.query(
      `INSERT INTO webhooks.batch_tallies (batch_id, items_expected, items_final, updated_at)
       VALUES ('bat_old', 2, 2, now() - 40 * ${DAY}), ('bat_recent', 2, 1, now() - 2 * ${DAY})`,
    );

    const job = createWebhookRetention({
      db: h.db,
      env: { WEBHOOK_RETENTION_BATCH_SIZE: "2" },
      logger,
      now: () => new Date(),
    });
    expect(await job.runOnce()).toEqual({
      "webhooks.delivery_attempts": 6,
      "webhooks.deliveries": 3,
      // The three whose deliveries just went, and the one that never had any.
      "webhooks.processed_events": 4,
      "webhooks.batch_tallies": 1,
    });
    expect(await ids("SELECT batch_id AS id FROM webhooks.batch_tallies")).toEqual(["bat_recent"]);
    expect(await ids("SELECT delivery_id AS id FROM webhooks.deliveries")).toEqual(
      ["whd_old_dead", "whd_old_delivering", "whd_old_pending", "whd_recent_delivered"].sort(),
    );
    const attemptsLeft = await h.db.query<{ delivery_id: string; n: string }>(
      "SELECT delivery_id, count(*) AS n FROM webhooks.delivery_attempts GROUP BY delivery_id ORDER BY delivery_id",
    );
    expect(attemptsLeft.rows.map((r) => [r.delivery_id, Number(r.n)])).toEqual([
      ["whd_old_dead", 9],
      ["whd_old_delivering", 1],
      ["whd_old_pending", 4],
      ["whd_recent_delivered", 1],
    ]);
    expect(await ids("SELECT event_id AS id FROM webhooks.processed_events")).toEqual(
      [
        "evt_old_dead",
        "evt_old_delivering",
        "evt_old_pending",
        "evt_recent_delivered",
        "evt_recent_no_delivery",
      ].sort(),
    );
    const counted = await deletedPerTable();
    expect(counted["webhooks.delivery_attempts"]).toBe(6);
    expect(counted["webhooks.deliveries"]).toBe(3);
    expect(counted["webhooks.processed_events"]).toBe(4);
  });
});
