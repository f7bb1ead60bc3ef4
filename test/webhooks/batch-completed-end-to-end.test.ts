/**
 * batch.completed through the whole platform on real PostgreSQL and real Kafka: a batch of two items whose
 * sandbox destinations pay, created and approved through the partner API, is announced once to a
 * configuration subscribed to `batch.completed` only, signed and verified with the SDK, after both item
 * payouts are final. A second configuration subscribed to `transaction.success` receives each item's
 * notification naming its batch and item. The partner's and the operators' delivery lists serve the row.
 * Answers and notification bodies are checked against the partner document the gateway serves.
 */
import { randomBytes } from "node:crypto";
import { verifyWebhook } from "@payouts/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FundedPartner, fundedPartner, setUpBrazil } from "../client/support/client-fixtures.js";
import { createOpenApiValidator, documentedSchema } from "../support/openapi/openapi-validator.js";
import { OpenApiContract } from "../support/openapi-contract.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { approvedTwoItemBatch } from "./support/batch-fixtures.js";
import { type ReceivedRequest, startTestReceiver, type TestReceiver } from "./support/test-receiver.js";
import { type Json, sleep } from "./support/webhook-fixtures.js";

const SECRET = "batch-end-to-end-secret-0123456789";

describe("batch.completed of a real bulk payout", () => {
  let platform: TestPlatform;
  let receiver: TestReceiver;
  let partner: FundedPartner;
  let contract: OpenApiContract;
  /** Item statuses read by the receiver when the batch.completed notification arrived. */
  let statusesOnArrival: Promise<string[]> | undefined;

  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    platform.partner(partner, method, path, body, headers);

  const itemStatuses = async (batchId: string): Promise<string[]> => {
    const items = await call("GET", `/batches/${batchId}/items`);
    return (items.json.items as Json[]).map((i) => `${i.item_ref}:${i.status}`);
  };

  beforeAll(async () => {
    platform = await startTestPlatform({
      kafka: true,
      env: {
        // Other test platforms share the topic: a group of our own sees every event.
        WEBHOOK_CONSUMER_GROUP: `batch-e2e-${randomBytes(4).toString("hex")}`,
        WEBHOOK_RETRY_SCHEDULE_MS: "0,200,200",
        QUOTE_TTL_MS: "600000",
        SANDBOX_AUTO_SETTLE_MS: "200",
        BATCH_WORK_INTERVAL_MS: "100",
        RAIL_RETRY_INTERVAL_MS: "200",
      },
    });
    await setUpBrazil(platform);
    receiver = await startTestReceiver((request) => {
      if (request.path.startsWith("/batches/") && statusesOnArrival === undefined) {
        const batchId = String(JSON.parse(request.rawBody.toString("utf8")).batch_id);
        statusesOnArrival = itemStatuses(batchId);
      }
      return { status: 200, body: "{}" };
    });
    partner = await fundedPartner(platform, "1000");
    contract = new OpenApiContract((await platform.partner(undefined, "GET", "/openapi.json")).json);
  });
  afterAll(async () => {
    await platform?.close();
    await receiver?.close();
  });

  it("sends one signed batch.completed with the counts after both items are paid", async () => {
    for (const [name, events] of [
      ["batches", ["batch.completed"]],
      ["items", ["transaction.success"]],
    ] as const) {
      const config = await call("POST", "/webhookConfigs", {
        url: `${receiver.url}/${name}`,
        secret: SECRET,
        events,
      });
      expect(config.status, config.text).toBe(201);
      contract.check("POST", "/webhookConfigs", config);
      expect(config.json.events).toEqual(events);
    }
    const batchId = await approvedTwoItemBatch(call, "e2e");

    const [request] = await receiver.waitFor(1, (r) => r.path.startsWith("/batches/"), 30_000);
    const items = await receiver.waitFor(2, (r) => r.path.startsWith("/items/"), 30_000);
    // Long enough for a second copy, or a notification the batch config did not ask for, to arrive.
    await sleep(2_000);
    const toBatches = receiver.requests.filter((r) => r.path.startsWith("/batches/"));
    expect(toBatches.map((r) => r.path)).toEqual(["/batches/webhooks/batches/completed"]);

    // Both item payouts were final when the notification arrived.
    expect(await statusesOnArrival).toEqual(["e2e-1:SUCCESS", "e2e-2:SUCCESS"]);
    const batch = (await call("GET", `/batches/${batchId}`)).json;
    expect(batch.status).toBe("COMPLETED");

    // Signed with both schemes; the SDK verifies the Standard Webhooks signature and types the body.
    const verified = await verifyWebhook(request!.rawBody, request!.headers, SECRET);
    expect(verified.id).toBe(verified.event.event_id);
    expect(request!.headers["x-service-event-type"]).toBe("batch.completed");
    if (verified.event.event_type !== "batch.completed") throw new Error(verified.event.event_type);
    const event = verified.event;
    expect(event).toMatchObject({
      batch_id: batchId,
      partner_id: partner.partnerId,
      status: "COMPLETED",
      parent_batch_id: null,
      counts: { total: 2, succeeded: 2, failed: 0, invalid: 0, excluded: 0 },
      released_usd: batch.released_usd,
    });
    expect(Number(event.paid_usd)).toBeCloseTo(Number(batch.total_usd), 12);

    // The body is the documented one, closed: a field sent but not documented fails.
    const hooks = createOpenApiValidator(contract.doc, { closed: true });
    const bodySchema = (event: string) =>
      documentedSchema(contract.doc, "webhooks", event, "post", "request");
    expect(hooks.validate(bodySchema("batch.completed"), event)).toEqual([]);

    // Each item's own notification names its batch and item.
    const itemEvents = await Promise.all(
      items.map(async (r: ReceivedRequest) => (await verifyWebhook(r.rawBody, r.headers, SECRET)).event),
    );
    expect(
      itemEvents.map((e) => (e.event_type === "transaction.success" ? [e.batch_id, e.item_ref] : [])).sort(),
    ).toEqual([
      [batchId, "e2e-1"],
      [batchId, "e2e-2"],
    ]);
    for (const itemEvent of itemEvents) {
      expect(hooks.validate(bodySchema("transaction.success"), itemEvent)).toEqual([]);
    }

    // The partner's delivery log and the operators' event_type filter serve the row.
    const partnerLog = await call("GET", `/webhookDeliveries?tx_id=${batchId}`);
    contract.check("GET", "/webhookDeliveries", partnerLog);
    expect(partnerLog.json.deliveries.map((d: Json) => [d.event_type, d.event_id, d.status])).toEqual([
      ["batch.completed", event.event_id, "delivered"],
    ]);
    const adminLog = await platform.admin(
      "GET",
      `/admin/webhook-deliveries?event_type=batch.completed&partner_id=${partner.partnerId}`,
    );
    expect(adminLog.status, adminLog.text).toBe(200);
    expect(adminLog.json.deliveries.map((d: Json) => [d.event_type, d.tx_id])).toEqual([
      ["batch.completed", batchId],
    ]);
  });
});
