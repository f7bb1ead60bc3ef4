import { newId } from "@payouts/platform/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "./support/test-receiver.js";
import { createConfig, newTxId, settledDeliveries } from "./support/webhook-fixtures.js";
import {
  eventually,
  type Partner,
  startWebhookHarness,
  transactionEvent,
  type WebhookHarness,
} from "./support/webhook-harness.js";

describe("dispatcher restarts", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;

  beforeAll(async () => {
    harness = await startWebhookHarness({ kafka: true });
    receiver = await startTestReceiver(() => ({ status: 200, body: "{}", delayMs: 20 }));
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it("loses nothing and duplicates nothing when restarted mid-stream", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/stream` });
    const events = (count: number) =>
      Array.from({ length: count }, () =>
        transactionEvent({
          partnerId: partner.partnerId,
          txId: newTxId(),
          eventType: "transaction.success",
          sequence: 2,
        }),
      );
    const before = events(30);
    const during = events(10);
    const after = events(10);

    await harness.publish(...before);
    await receiver.waitFor(5, (r) => r.path.startsWith("/stream/"));
    const restarting = harness.restartDispatcher();
    await harness.publish(...during);
    await restarting;
    await harness.publish(...after);

    const published = [...before, ...during, ...after].map((e) => e.eventId);
    await settledDeliveries(
      harness,
      partner,
      `config_id=${config.config_id}&limit=100`,
      published.length,
      "delivered",
      30_000,
    );
    const received = receiver.requests
      .filter((r) => r.path.startsWith("/stream/"))
      .map((r) => r.headers["x-service-event-id"]);
    expect(new Set(received)).toEqual(new Set(published));
    // A graceful stop finishes the attempts in flight, so not even the event id is needed to drop a copy.
    expect(received).toHaveLength(published.length);
    const { rows } = await harness.db.query<{ count: string }>(
      "SELECT count(*) FROM webhooks.deliveries WHERE config_id = $1",
      [config.config_id],
    );
    expect(Number(rows[0]!.count)).toBe(published.length);
  });

  it("retries a claim abandoned by a worker that died mid-attempt once its lease expires", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/abandoned` });
    const deliveryId = await insertAbandonedClaim(harness, partner, config.config_id);

    const [row] = await settledDeliveries(harness, partner, `config_id=${config.config_id}`, 1);
    expect(row).toMatchObject({ delivery_id: deliveryId, attempts: 2, last_status_code: 200 });
    expect(row.history.map((a: { attempt: number }) => a.attempt)).toEqual([2]);
    const [request] = await eventually(async () => {
      const got = receiver.requests.filter((r) => r.path.startsWith("/abandoned/"));
      return got.length > 0 ? got : undefined;
    });
    expect(request!.headers["x-service-attempt"]).toBe("2");
    expect(request!.rawBody.toString()).toBe('{"abandoned":true}');
  });
});

/** A delivery left `delivering` by a crashed worker: attempt 1 started, lease already expired. */
async function insertAbandonedClaim(
  harness: WebhookHarness,
  partner: Partner,
  configId: string,
): Promise<string> {
  const deliveryId = newId("whd");
  await harness.db.query(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body,
       status, attempts, next_attempt_at, lease_expires_at)
     VALUES ($1, $2, $3, $4, $5, 2, 'transaction.success', $6, 'delivering', 1, now(), now() - interval '1 second')`,
    [deliveryId, newId("evt"), configId, partner.partnerId, newTxId(), Buffer.from('{"abandoned":true}')],
  );
  return deliveryId;
}
