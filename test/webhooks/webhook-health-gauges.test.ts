/**
 * The receiver health gauges on real PostgreSQL, read through the OpenTelemetry SDK: totals by receiver
 * status, oldest pending age, circuits and pauses; per-receiver series for the top N receivers only; and
 * figures that come from the periodic refresh, not from a query at each collection.
 */
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { newId } from "@payouts/platform/ids";
import { createLogger } from "@payouts/platform/logging/logger";
import {
  createReceiverHealthGauges,
  type ReceiverHealthGauges,
} from "@payouts/webhooks/internal/telemetry/receiver-health-gauges";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfig, type Json } from "./support/webhook-fixtures.js";
import { type Partner, startWebhookHarness, type WebhookHarness } from "./support/webhook-harness.js";

class TestReader extends MetricReader {
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

interface Point {
  readonly attributes: Record<string, unknown>;
  readonly value: number;
}

describe("receiver health gauges", () => {
  let harness: WebhookHarness;
  let partner: Partner;
  let reader: TestReader;
  let provider: MeterProvider;
  let gauges: ReceiverHealthGauges;
  const configs: Json[] = [];

  async function queue(configId: string, count: number, ageMs: number) {
    await harness.db.query(
      `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
         body, status, next_attempt_at, created_at)
       SELECT $1 || '_' || i, $1 || '_evt_' || i, $2, $3, $1 || '_tx_' || i, 1, 'transaction.success',
              convert_to('{}', 'UTF8'), 'pending', now() + interval '1 day', now() - $5 * interval '1 millisecond'
         FROM generate_series(1, $4::int) AS i`,
      [newId("whd"), configId, partner.partnerId, count, ageMs],
    );
  }

  async function collect(): Promise<Map<string, Point[]>> {
    const { resourceMetrics } = await reader.collect();
    const out = new Map<string, Point[]>();
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        out.set(
          metric.descriptor.name,
          metric.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value as number })),
        );
      }
    }
    return out;
  }
  const pointValue = (points: Point[] | undefined, attributes: Record<string, string>) =>
    points?.find((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))?.value;

  beforeAll(async () => {
    harness = await startWebhookHarness({ env: { WEBHOOK_MAX_CONFIGS_PER_PARTNER: "20" } });
    await harness.dispatcher.stop();
    partner = await harness.createPartner();
    for (let i = 0; i < 12; i++) {
      configs.push(await createConfig(harness, partner, { url: `http://127.0.0.1:9/r${i}` }));
    }
    // Receiver i has i + 1 pending rows, the oldest i minutes old.
    for (const [i, config] of configs.entries()) await queue(config.config_id, i + 1, i * 60_000);
    await harness.db.query("UPDATE webhooks.configs SET paused = true WHERE config_id = $1", [
      configs[11].config_id,
    ]);
    await harness.db.query("UPDATE webhooks.configs SET active = false WHERE config_id = $1", [
      configs[10].config_id,
    ]);
    await harness.db.query(
      `UPDATE webhooks.configs SET circuit_state = 'open', circuit_failures = 5, circuit_opened_at = now(),
         circuit_retry_at = now() + interval '1 minute' WHERE config_id = $1`,
      [configs[0].config_id],
    );
    reader = new TestReader();
    provider = new MeterProvider({ readers: [reader] });
    gauges = createReceiverHealthGauges({
      db: harness.db,
      logger: createLogger({ service: "gauge-test", level: "silent" }),
      now: () => new Date(),
      intervalMs: 3_600_000,
      topN: 10,
      meter: provider.getMeter("test"),
    });
    gauges.start();
    await gauges.refresh();
  });
  afterAll(async () => {
    gauges?.stop();
    await provider?.shutdown();
    await harness?.close();
  });

  it("reports the backlog and oldest pending age by receiver status, open circuits and pauses", async () => {
    const m = await collect();
    const backlog = m.get("payouts.webhooks.backlog");
    // Receivers 0-9 active (1 + … + 10 rows), 10 disabled (11 rows), 11 paused (12 rows).
    expect(pointValue(backlog, { receiver_status: "active" })).toBe(55);
    expect(pointValue(backlog, { receiver_status: "disabled" })).toBe(11);
    expect(pointValue(backlog, { receiver_status: "paused" })).toBe(12);
    const age = m.get("payouts.webhooks.backlog.oldest.age.seconds");
    expect(pointValue(age, { receiver_status: "active" })).toBeGreaterThanOrEqual(9 * 60);
    expect(pointValue(age, { receiver_status: "active" })).toBeLessThan(9 * 60 + 60);
    expect(pointValue(age, { receiver_status: "paused" })).toBeGreaterThanOrEqual(11 * 60);
    expect(pointValue(m.get("payouts.webhooks.circuits"), { state: "open" })).toBe(1);
    expect(pointValue(m.get("payouts.webhooks.circuits"), { state: "half_open" })).toBe(0);
    expect(m.get("payouts.webhooks.receivers.paused")?.[0]?.value).toBe(1);
  });

  it("gives per-receiver series to the top 10 receivers only", async () => {
    const m = await collect();
    const perReceiver = m.get("payouts.webhooks.receiver.backlog") ?? [];
    expect(perReceiver).toHaveLength(10);
    // The two smallest backlogs (receivers 0 and 1) have no series of their own.
    const ids = perReceiver.map((p) => p.attributes.config_id);
    expect(ids).not.toContain(configs[0].config_id);
    expect(ids).not.toContain(configs[1].config_id);
    expect(pointValue(perReceiver, { config_id: configs[11].config_id, partner_id: partner.partnerId })).toBe(
      12,
    );
    const oldest = m.get("payouts.webhooks.receiver.oldest.age.seconds") ?? [];
    expect(oldest).toHaveLength(10);
    expect(oldest.map((p) => p.attributes.config_id)).not.toContain(configs[0].config_id);
  });

  it("reads the figures of the last refresh at each collection, and the new ones after the next refresh", async () => {
    await queue(configs[0].config_id, 100, 0);
    const before = await collect();
    expect(pointValue(before.get("payouts.webhooks.backlog"), { receiver_status: "active" })).toBe(55);
    await gauges.refresh();
    const after = await collect();
    expect(pointValue(after.get("payouts.webhooks.backlog"), { receiver_status: "active" })).toBe(155);
    expect(
      pointValue(after.get("payouts.webhooks.receiver.backlog"), { config_id: configs[0].config_id }),
    ).toBe(101);
  });
});
