/**
 * The whole platform on real PostgreSQL and real Kafka: a payout executed, settled by the sandbox rail and
 * refunded through the public routes; the ledger's outbox relay publishes the events, the dispatcher
 * consumes them and a real receiver checks the notifications.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  executePayout,
  fundedPartner,
  type Partner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "../ledger/support/payout-fixtures.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  jsonOf,
  startTestReceiver,
  type TestReceiver,
  verifiesServiceSignature,
  verifiesStandardWebhookSignature,
} from "./support/test-receiver.js";
import { APP_VERSION } from "./support/webhook-fixtures.js";

const SECRET = "end-to-end-secret-0123456789";

describe("notifications of a real payout", () => {
  let platform: TestPlatform;
  let receiver: TestReceiver;
  let partner: Partner;

  beforeAll(async () => {
    platform = await startTestPlatform({
      kafka: true,
      env: {
        // Other test platforms share the topic: a group of our own sees every event.
        WEBHOOK_CONSUMER_GROUP: `webhook-e2e-${randomBytes(4).toString("hex")}`,
        WEBHOOK_RETRY_SCHEDULE_MS: "0,200,200",
        QUOTE_TTL_MS: "600000",
      },
    });
    await setUpCorridor(platform);
    receiver = await startTestReceiver((request) =>
      request.path.endsWith("/refunded")
        ? { status: 200, body: '{"received":true,"message":"refund booked"}' }
        : { status: 200, body: "{}" },
    );
    partner = await fundedPartner(platform, "100");
  });
  afterAll(async () => {
    await platform?.close();
    await receiver?.close();
  });

  it("delivers transaction.success and transaction.refunded, signed, in order", async () => {
    const config = await platform.partner(partner, "POST", "/webhookConfigs", {
      url: `${receiver.url}/partner`,
      secret: SECRET,
      events: ["transaction.success", "transaction.refunded"],
    });
    expect(config.status, config.text).toBe(201);

    const txId = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    const executed = await executePayout(platform, partner, txId, `key-${txId}`);
    expect(executed.status, executed.text).toBe(200);
    const settled = await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
      outcome: "SUCCESS",
    });
    expect(settled.status, settled.text).toBe(200);
    const refund = await platform.admin("POST", `/admin/transactions/${txId}/refund`, {
      reason: "customer request",
    });
    expect(refund.status, refund.text).toBe(200);

    const [success, refunded] = await receiver.waitFor(2, (r) => r.path.startsWith("/partner/"), 30_000);
    expect(success!.path).toBe("/partner/webhooks/transactions/success");
    expect(refunded!.path).toBe("/partner/webhooks/transactions/refunded");
    for (const request of [success!, refunded!]) {
      expect(request.headers["user-agent"]).toBe(`SERVICE-Webhook/${APP_VERSION}`);
      expect(request.headers["content-type"]).toBe("application/json");
      expect(verifiesServiceSignature(SECRET, request)).toBe(true);
      expect(
        verifiesStandardWebhookSignature(`whsec_${Buffer.from(SECRET).toString("base64")}`, request),
      ).toBe(true);
      expect(request.headers["x-service-event-id"]).toBe(jsonOf(request).event_id);
    }
    expect(jsonOf(success!)).toMatchObject({
      tx_id: txId,
      status: "SUCCESS",
      event_type: "transaction.success",
      recipient: { account_no: "0123456789" },
    });
    expect(success!.rawBody.toString()).toContain('"fee":0.45,"percentage_fee":0.15,"fixed_fee":0.30');
    expect(jsonOf(refunded!)).toMatchObject({
      tx_id: txId,
      status: "REFUNDED",
      event_type: "transaction.refunded",
      refund_reason: "customer request",
    });

    // The receiver has answered; the dispatcher records the outcome just after, so wait for the log.
    let log = await platform.partner(partner, "GET", `/webhookDeliveries?tx_id=${txId}`);
    for (
      let i = 0;
      i < 100 && log.json.deliveries.some((d: { status: string }) => d.status !== "delivered");
      i++
    ) {
      await new Promise((r) => setTimeout(r, 100));
      log = await platform.partner(partner, "GET", `/webhookDeliveries?tx_id=${txId}`);
    }
    expect(
      log.json.deliveries.map((d: { event_type: string; status: string }) => [d.event_type, d.status]),
    ).toEqual([
      ["transaction.refunded", "delivered"],
      ["transaction.success", "delivered"],
    ]);
    expect(JSON.parse(log.json.deliveries[0].response_body)).toEqual({
      received: true,
      message: "refund booked",
    });
  });
});
