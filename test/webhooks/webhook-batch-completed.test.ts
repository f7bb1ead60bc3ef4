/**
 * batch.completed end to end on real PostgreSQL and real Kafka: a signed BatchEvent published on the bus
 * (twice, as a relay that crashed after publishing would) becomes one signed delivery per configuration
 * that wants it, at `{url}/webhooks/batches/completed`, with the batch's outcome in snake_case.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { newId } from "@payouts/platform/ids";
import { BatchEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  jsonOf,
  startTestReceiver,
  type TestReceiver,
  verifiesServiceSignature,
  verifiesStandardWebhookSignature,
} from "./support/test-receiver.js";
import { createConfig, sleep } from "./support/webhook-fixtures.js";
import { type Partner, startWebhookHarness, type WebhookHarness } from "./support/webhook-harness.js";

const SECRET = "batch-completed-secret-0123456789";

describe("batch.completed notifications", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;
  let partner: Partner;

  beforeAll(async () => {
    harness = await startWebhookHarness({ kafka: true });
    receiver = await startTestReceiver();
    partner = await harness.createPartner();
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it("delivers a batch's outcome once, signed, to every configuration whose filter wants it", async () => {
    for (const [name, events] of [
      ["all", ["*"]],
      ["payouts", ["transaction.success"]],
      ["statements", ["statement.closed"]],
    ] as const) {
      await createConfig(harness, partner, { url: `${receiver.url}/${name}`, secret: SECRET, events });
    }
    const occurredAt = new Date("2026-11-28T12:00:00.123Z");
    const event = create(BatchEventSchema, {
      eventId: newId("evt"),
      eventType: "batch.completed",
      occurredAt: timestampFromDate(occurredAt),
      batchId: newId("bat"),
      partnerId: partner.partnerId,
      status: "COMPLETED",
      parentBatchId: "bat_parent",
      total: 4,
      succeeded: 2,
      failed: 1,
      invalid: 1,
      excluded: 0,
      paidUsd: "20.9",
      releasedUsd: "10.45",
    });
    await harness.publishBatches(event);
    await harness.publishBatches(event);

    const [request] = await receiver.waitFor(1, () => true, 15_000);
    // Long enough for the second copy, or a delivery to a configuration that does not want it, to arrive.
    await sleep(2_000);
    // Stored once, keyed by the batch, and delivered.
    const rows = await harness.db.query<{ tx_id: string; event_type: string; status: string }>(
      `SELECT tx_id, event_type, status FROM webhooks.deliveries WHERE event_id = $1`,
      [event.eventId],
    );
    expect(rows.rows).toEqual([{ tx_id: event.batchId, event_type: "batch.completed", status: "delivered" }]);
    expect(receiver.requests.map((r) => r.path)).toEqual(["/all/webhooks/batches/completed"]);
    expect(verifiesServiceSignature(SECRET, request!)).toBe(true);
    expect(
      verifiesStandardWebhookSignature(`whsec_${Buffer.from(SECRET).toString("base64")}`, request!),
    ).toBe(true);
    expect(request!.headers["x-service-event-id"]).toBe(event.eventId);
    expect(jsonOf(request!)).toEqual({
      batch_id: event.batchId,
      partner_id: partner.partnerId,
      status: "COMPLETED",
      parent_batch_id: "bat_parent",
      counts: { total: 4, succeeded: 2, failed: 1, invalid: 1, excluded: 0 },
      paid_usd: "20.9",
      released_usd: "10.45",
      event_id: event.eventId,
      event_type: "batch.completed",
      occurred_at: occurredAt.toISOString(),
    });
  });
});
