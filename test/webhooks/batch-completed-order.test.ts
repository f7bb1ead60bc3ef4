/**
 * batch.completed after its items' events, on real PostgreSQL, when the intake consumes them in the wrong
 * order: the batch event (keyed by batch id) before an item's event (keyed by tx id), as two partitions
 * may deliver them. The batch's delivery is stored at once but not claimed until the intake has stored
 * every item's final event the batch event announces (BatchEvent.executed_items) and every delivery of
 * those events to the partner (any configuration) is delivered or dead. That check is one probe of the
 * index of unsettled item deliveries and one of the batch's tally, whatever the delivered history.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { newId } from "@payouts/platform/ids";
import { type BatchEvent, BatchEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { CLAIM_DUE_SQL, claimParameters } from "@payouts/webhooks/internal/store/delivery-queue-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "./support/test-receiver.js";
import { createConfig, newTxId, sleep } from "./support/webhook-fixtures.js";
import {
  eventually,
  type Partner,
  startWebhookHarness,
  transactionEvent,
  type WebhookHarness,
} from "./support/webhook-harness.js";

const SECRET = "batch-order-secret-0123456789abcd";
/** Longer than several claim passes (WEBHOOK_POLL_INTERVAL_MS 50) and the first retries (200 ms). */
const HELD_MS = 1_500;

describe("batch.completed waits for the item events consumed after it", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;
  /** While true, the item receiver answers 503. */
  let itemsDown = false;

  beforeAll(async () => {
    harness = await startWebhookHarness({
      // Retries outlive the refusals below, so an item's delivery is delivered, not dead.
      env: { WEBHOOK_RETRY_SCHEDULE_MS: "0,200,200,200,200,200,200,200,200,200,200,200" },
    });
    receiver = await startTestReceiver((request) =>
      request.path.startsWith("/items/") && itemsDown ? { status: 503 } : { status: 200, body: "{}" },
    );
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  const batchEvent = (partner: Partner, executedItems: number): BatchEvent =>
    create(BatchEventSchema, {
      eventId: newId("evt"),
      eventType: "batch.completed",
      occurredAt: timestampFromDate(new Date()),
      batchId: newId("bat"),
      partnerId: partner.partnerId,
      status: "COMPLETED",
      total: executedItems,
      succeeded: executedItems,
      paidUsd: "20",
      releasedUsd: "0",
      executedItems,
    });

  const itemEvent = (partner: Partner, batch: BatchEvent, itemRef: string) => {
    const event = transactionEvent({
      partnerId: partner.partnerId,
      txId: newTxId(),
      eventType: "transaction.success",
      sequence: 3,
    });
    event.batchId = batch.batchId;
    event.itemRef = itemRef;
    return event;
  };

  const batchDelivery = async (batch: BatchEvent) => {
    const res = await harness.db.query<{ status: string; attempts: number }>(
      "SELECT status, attempts FROM webhooks.deliveries WHERE event_id = $1",
      [batch.eventId],
    );
    return res.rows;
  };

  const requestsTo = (prefix: string, eventId: string) =>
    receiver.requests.filter((r) => r.path.startsWith(prefix) && r.headers["webhook-id"] === eventId);

  it("is not claimed until an item event consumed after it is stored and delivered", async () => {
    const partner = await harness.createPartner();
    await createConfig(harness, partner, {
      url: `${receiver.url}/batches`,
      secret: SECRET,
      events: ["batch.completed"],
    });
    await createConfig(harness, partner, {
      url: `${receiver.url}/items`,
      secret: SECRET,
      events: ["transaction.success"],
    });
    const batch = batchEvent(partner, 2);
    const first = itemEvent(partner, batch, "item-1");
    const last = itemEvent(partner, batch, "item-2");

    // The batch event and one item's event are consumed; the other item's is not yet.
    await harness.publishBatches(batch);
    await harness.publish(first);
    await eventually(async () => (requestsTo("/items/", first.eventId).length > 0 ? true : undefined));
    await sleep(HELD_MS);
    expect(await batchDelivery(batch)).toEqual([{ status: "pending", attempts: 0 }]);
    expect(requestsTo("/batches/", batch.eventId)).toEqual([]);

    // The last item's event arrives while its receiver refuses: stored, but not delivered.
    itemsDown = true;
    await harness.publish(last);
    await eventually(async () => (requestsTo("/items/", last.eventId).length >= 2 ? true : undefined));
    expect(await batchDelivery(batch)).toEqual([{ status: "pending", attempts: 0 }]);

    // Once it is delivered, batch.completed goes, after it.
    itemsDown = false;
    const [sent] = await receiver.waitFor(
      1,
      (r) => r.path.startsWith("/batches/") && r.headers["webhook-id"] === batch.eventId,
      15_000,
    );
    const lastAcked = await eventually(async () => {
      const res = await harness.db.query<{ delivered_at: Date }>(
        "SELECT delivered_at FROM webhooks.deliveries WHERE event_id = $1 AND status = 'delivered'",
        [last.eventId],
      );
      return res.rows[0]?.delivered_at;
    });
    expect(sent!.receivedAt).toBeGreaterThanOrEqual(lastAcked.getTime());
    const lastItemRequests = requestsTo("/items/", last.eventId);
    expect(sent!.receivedAt).toBeGreaterThanOrEqual(lastItemRequests.at(-1)!.receivedAt);
    await eventually(async () =>
      (await batchDelivery(batch))[0]?.status === "delivered" ? true : undefined,
    );
    expect(await batchDelivery(batch)).toEqual([{ status: "delivered", attempts: 1 }]);
  });

  it("counts the items' events even when no configuration receives them, each event once", async () => {
    const partner = await harness.createPartner();
    await createConfig(harness, partner, {
      url: `${receiver.url}/batches`,
      secret: SECRET,
      events: ["batch.completed"],
    });
    const batch = batchEvent(partner, 2);
    const first = itemEvent(partner, batch, "item-1");
    const last = itemEvent(partner, batch, "item-2");

    await harness.publishBatches(batch);
    // The bus redelivers the first item's event: it still counts once.
    await harness.publish(first);
    await harness.publish(first);
    await eventually(async () => ((await batchDelivery(batch)).length === 1 ? true : undefined));
    await sleep(HELD_MS);
    expect(await batchDelivery(batch)).toEqual([{ status: "pending", attempts: 0 }]);
    const tally = await harness.db.query(
      "SELECT items_expected, items_final FROM webhooks.batch_tallies WHERE batch_id = $1",
      [batch.batchId],
    );
    expect(tally.rows).toEqual([{ items_expected: 2, items_final: 1 }]);

    await harness.publish(last);
    await eventually(async () =>
      (await batchDelivery(batch))[0]?.status === "delivered" ? true : undefined,
    );
    expect(requestsTo("/batches/", batch.eventId)).toHaveLength(1);
  });

  it("checks a batch.completed row with one index probe, however many item deliveries are stored", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, {
      url: `${receiver.url}/probe`,
      secret: SECRET,
      events: ["*"],
    });
    // 40,000 delivered item events of 400 earlier batches; none of them is in the batch index.
    await harness.db.query(
      `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
         body, status, attempts, next_attempt_at, delivered_at, batch_id)
       SELECT 'whd_probe_' || i, 'evt_probe_' || i, $1, $2, 'tx_probe_' || i, 3, 'transaction.success',
              '\\x7b7d'::bytea, 'delivered', 1, now(), now(), 'bat_probe_' || (i % 400)
         FROM generate_series(1, 40000) AS i`,
      [config.config_id, partner.partnerId],
    );
    await harness.db.query("ANALYZE webhooks.deliveries");
    const plan = await harness.db.query<{ "QUERY PLAN": string }>(
      `EXPLAIN ${CLAIM_DUE_SQL}`,
      claimParameters({
        now: new Date(),
        leaseMs: 10_000,
        workerId: "whw_probe",
        limit: 8,
        perConfigLimit: 4,
      }),
    );
    const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain("deliveries_batch_open_idx on deliveries i");
    expect(text).not.toMatch(/Seq Scan on deliveries i\b/);
    expect(text).toContain("batch_tallies_pkey on batch_tallies t");
  });

  it("sends batch.completed consumed after its items' events without waiting", async () => {
    const partner = await harness.createPartner();
    await createConfig(harness, partner, { url: `${receiver.url}/all`, secret: SECRET, events: ["*"] });
    const batch = batchEvent(partner, 1);
    const item = itemEvent(partner, batch, "item-1");
    await harness.publish(item);
    await harness.publishBatches(batch);
    const requests = await receiver.waitFor(
      2,
      (r) =>
        r.path.startsWith("/all/") && [item.eventId, batch.eventId].includes(String(r.headers["webhook-id"])),
      15_000,
    );
    expect(requests.map((r) => r.headers["webhook-id"])).toEqual([item.eventId, batch.eventId]);
  });
});
