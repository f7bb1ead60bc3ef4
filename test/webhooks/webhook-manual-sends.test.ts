import { newId } from "@payouts/platform/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "./support/test-receiver.js";
import { createConfig, newTxId, settledDeliveries } from "./support/webhook-fixtures.js";
import {
  type Partner,
  startWebhookHarness,
  transactionEvent,
  type WebhookHarness,
} from "./support/webhook-harness.js";

/**
 * One partner cannot starve the others: configs per partner are limited, and test
 * notifications and redeliveries are rate-limited per partner and go through the same claim and caps as
 * every delivery.
 */
describe("limits on what one partner can make the dispatcher do", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;

  beforeAll(async () => {
    harness = await startWebhookHarness({
      env: { WEBHOOK_TEST_RATE_LIMIT_PER_MINUTE: "3", WEBHOOK_REDELIVER_RATE_LIMIT_PER_MINUTE: "3" },
    });
    receiver = await startTestReceiver(() => ({ status: 200, body: "{}" }));
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it("refuses an 11th config with 409 WEBHOOK_CONFIG_LIMIT_REACHED, also under concurrent creates", async () => {
    const partner = await harness.createPartner();
    for (let i = 0; i < 7; i++) await createConfig(harness, partner, { url: `${receiver.url}/limit-${i}` });
    const racing = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        harness.api(partner, "POST", "/webhookConfigs", { url: `${receiver.url}/race-${i}` }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409]);
    const refused = racing.find((r) => r.status === 409)!;
    expect(refused.json).toMatchObject({ code: "WEBHOOK_CONFIG_LIMIT_REACHED" });
    expect(refused.json.message).toMatch(/at most 10 webhook configs/);
    const list = await harness.api(partner, "GET", "/webhookConfigs");
    expect(list.json.webhook_configs).toHaveLength(10);

    // Another partner is not affected; deleting one makes room again.
    await createConfig(harness, await harness.createPartner(), { url: `${receiver.url}/other` });
    const first = list.json.webhook_configs[0].config_id;
    expect((await harness.api(partner, "DELETE", `/webhookConfigs/${first}`)).status).toBe(204);
    await createConfig(harness, partner, { url: `${receiver.url}/after-delete` });
  });

  it("rate-limits test notifications per partner with 429 and Retry-After", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/tests` });
    const path = `/webhookConfigs/${config.config_id}/test`;
    for (let i = 0; i < 3; i++) {
      const res = await harness.api(partner, "POST", path);
      expect(res.status, res.text).toBe(200);
      expect(res.json.delivered).toBe(true);
    }
    const limited = await harness.api(partner, "POST", path);
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: "RATE_LIMIT_EXCEEDED" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(receiver.requests.filter((r) => r.path.startsWith("/tests/"))).toHaveLength(3);

    const other = await harness.createPartner();
    const otherConfig = await createConfig(harness, other, { url: `${receiver.url}/other-tests` });
    const res = await harness.api(other, "POST", `/webhookConfigs/${otherConfig.config_id}/test`);
    expect(res.status).toBe(200);
  });

  it("rate-limits redeliveries per partner with 429 and Retry-After", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/redeliver` });
    await harness.publish(
      transactionEvent({
        partnerId: partner.partnerId,
        txId: newTxId(),
        eventType: "transaction.success",
        sequence: 2,
      }),
    );
    const [row] = await settledDeliveries(harness, partner, `config_id=${config.config_id}`, 1);
    const path = `/webhookDeliveries/${row.delivery_id}/redeliver`;
    for (let i = 0; i < 3; i++) {
      await settledDeliveries(harness, partner, `config_id=${config.config_id}`, 1);
      const res = await harness.api(partner, "POST", path);
      expect(res.status, res.text).toBe(200);
    }
    const limited = await harness.api(partner, "POST", path);
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: "RATE_LIMIT_EXCEEDED" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("sends a test notification through the receiver's cap: with its 4 slots busy it is not sent", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/capped` });
    await occupySlots(harness, partner, config.config_id, 4);

    const res = await harness.api(partner, "POST", `/webhookConfigs/${config.config_id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ delivered: false, status_code: null });
    expect(res.json.error).toMatch(/^not sent: this receiver's delivery slots stayed busy/);
    expect(receiver.requests.filter((r) => r.path.startsWith("/capped/"))).toEqual([]);
    // Nothing is left behind in the queue or the log.
    const { rows } = await harness.db.query<{ count: string }>(
      "SELECT count(*) FROM webhooks.deliveries WHERE config_id = $1 AND kind = 'test'",
      [config.config_id],
    );
    expect(Number(rows[0]!.count)).toBe(0);
  });
});

/** `count` attempts in flight to a config, held by a live worker (as another dispatcher would). */
async function occupySlots(harness: WebhookHarness, partner: Partner, configId: string, count: number) {
  const worker = newId("whw");
  await harness.db.query(
    "INSERT INTO webhooks.workers (worker_id, alive_until) VALUES ($1, now() + interval '1 hour')",
    [worker],
  );
  for (let i = 0; i < count; i++) {
    await harness.db.query(
      `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body,
         status, attempts, next_attempt_at, lease_expires_at, claimed_by)
       VALUES ($1, $2, $3, $4, $5, 2, 'transaction.success', '\\x7b7d'::bytea, 'delivering', 1, now(),
               now() + interval '1 hour', $6)`,
      [newId("whd"), newId("evt"), configId, partner.partnerId, newTxId(), worker],
    );
  }
}
