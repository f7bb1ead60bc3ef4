import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  jsonOf,
  type ReceivedRequest,
  startTestReceiver,
  type TestReceiver,
  verifiesServiceSignature,
  verifiesStandardWebhookSignature,
} from "./support/test-receiver.js";
import {
  APP_VERSION,
  createConfig,
  deliveriesOf,
  type Json,
  newTxId,
  settledDeliveries,
  sleep,
} from "./support/webhook-fixtures.js";
import { startWebhookHarness, transactionEvent, type WebhookHarness } from "./support/webhook-harness.js";

const SECRET = "receiver-secret-0123456789";
const whsec = (secret: string) => `whsec_${Buffer.from(secret).toString("base64")}`;
const underPath = (prefix: string) => (r: ReceivedRequest) => r.path.startsWith(`${prefix}/`);

/**
 * End to end through real Kafka: TransactionEvents published to the topic, consumed by the dispatcher's
 * consumer group, stored in PostgreSQL and delivered to a real HTTP receiver (retry schedule 0, 200, 200 ms).
 */
describe("webhook delivery", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;

  beforeAll(async () => {
    harness = await startWebhookHarness({ kafka: true, env: { WEBHOOK_TIMEOUT_MS: "5000" } });
    receiver = await startTestReceiver();
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it("fans an event out to the matching active configurations of its partner only", async () => {
    const partner = await harness.createPartner();
    const stranger = await harness.createPartner();
    const all = await createConfig(harness, partner, { url: `${receiver.url}/fan-all` });
    const success = await createConfig(harness, partner, {
      url: `${receiver.url}/fan-success`,
      events: ["transaction.success"],
    });
    await createConfig(harness, partner, {
      url: `${receiver.url}/fan-refunded`,
      events: ["transaction.refunded"],
    });
    await createConfig(harness, partner, { url: `${receiver.url}/fan-inactive`, active: false });
    await createConfig(harness, stranger, { url: `${receiver.url}/fan-stranger` });
    const txId = newTxId();

    await harness.publish(
      transactionEvent({
        partnerId: partner.partnerId,
        txId,
        eventType: "transaction.processing",
        sequence: 1,
      }),
      transactionEvent({ partnerId: partner.partnerId, txId, eventType: "transaction.success", sequence: 2 }),
    );

    const rows = await settledDeliveries(harness, partner, `tx_id=${txId}`, 2);
    expect(rows.map((row) => row.config_id).sort()).toEqual([all.config_id, success.config_id].sort());
    expect(rows.every((row) => row.event_type === "transaction.success")).toBe(true);
    await receiver.waitFor(1, underPath("/fan-all"));
    await receiver.waitFor(1, underPath("/fan-success"));
    await sleep(300);
    for (const prefix of ["/fan-refunded", "/fan-inactive", "/fan-stranger"]) {
      expect(receiver.requests.filter(underPath(prefix)), prefix).toEqual([]);
    }
    expect(receiver.requests.filter(underPath("/fan-all"))).toHaveLength(1);
    expect(await deliveriesOf(harness, stranger, `tx_id=${txId}`)).toEqual([]);
  });

  it("sends success and refund to the partner API's paths with exact headers, bytes and signatures", async () => {
    const partner = await harness.createPartner();
    receiver.behaviour = (request) =>
      request.path.endsWith("/refunded")
        ? { status: 200, body: '{"received":true,"message":"refund noted"}' }
        : { status: 200, body: "{}" };
    await createConfig(harness, partner, {
      url: `${receiver.url}/signed`,
      secret: SECRET,
      basic_auth: { username: "hooks", password: "pa:ss wörd" },
    });
    const txId = newTxId();
    const success = transactionEvent({
      partnerId: partner.partnerId,
      txId,
      eventType: "transaction.success",
      sequence: 2,
    });
    const refunded = transactionEvent({
      partnerId: partner.partnerId,
      txId,
      eventType: "transaction.refunded",
      sequence: 3,
      refundReason: "customer request",
    });
    await harness.publish(success, refunded);

    const [first, second] = await receiver.waitFor(2, underPath("/signed"));
    expect(first!.path).toBe("/signed/webhooks/transactions/success");
    expect(second!.path).toBe("/signed/webhooks/transactions/refunded");
    for (const [request, event] of [
      [first!, success],
      [second!, refunded],
    ] as const) {
      expect(request.method).toBe("POST");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["user-agent"]).toBe(`SERVICE-Webhook/${APP_VERSION}`);
      expect(request.headers.authorization).toBe(
        `Basic ${Buffer.from("hooks:pa:ss wörd").toString("base64")}`,
      );
      expect(request.headers["x-service-event-id"]).toBe(event.eventId);
      expect(request.headers["x-service-event-type"]).toBe(event.eventType);
      expect(request.headers["x-service-attempt"]).toBe("1");
      expect(request.headers["webhook-id"]).toBe(event.eventId);
      expect(verifiesServiceSignature(SECRET, request)).toBe(true);
      expect(verifiesServiceSignature("another-secret-0123456789", request)).toBe(false);
      expect(verifiesStandardWebhookSignature(whsec(SECRET), request)).toBe(true);
    }
    const occurredAt = (e: typeof success) =>
      new Date(Number(e.occurredAt!.seconds) * 1000 + Math.floor(e.occurredAt!.nanos / 1e6)).toISOString();
    const common =
      '"amount":1500.50,"fee":0.47,"percentage_fee":0.17,"fixed_fee":0.30,' +
      '"sender":{"name_first":"Ana","name_last":"Peña","country":"US"},' +
      '"recipient":{"name_first":"John","account_no":"123456","bank_code":"01"}';
    expect(first!.rawBody.toString("utf8")).toBe(
      `{"tx_id":"${txId}","status":"SUCCESS",${common},"event_id":"${success.eventId}",` +
        `"event_type":"transaction.success","occurred_at":"${occurredAt(success)}"}`,
    );
    expect(jsonOf(second!)).toMatchObject({
      status: "REFUNDED",
      refund_reason: "customer request",
      tx_id: txId,
    });

    const rows = await settledDeliveries(harness, partner, `tx_id=${txId}`, 2);
    const refund = rows.find((row) => row.event_type === "transaction.refunded");
    expect(refund).toMatchObject({ last_status_code: 200, attempts: 1, last_error: null });
    expect(JSON.parse(refund.response_body)).toEqual({ received: true, message: "refund noted" });
    expect(refund.history).toHaveLength(1);
    expect(refund.history[0]).toMatchObject({ attempt: 1, status_code: 200, error: null });
    expect(refund.history[0].latency_ms).toBeGreaterThanOrEqual(0);
    receiver.behaviour = () => ({ status: 200, body: "{}" });
  });

  it("sends no signature without a secret and no Authorization without basic auth", async () => {
    const partner = await harness.createPartner();
    await createConfig(harness, partner, { url: `${receiver.url}/unsigned` });
    const event = transactionEvent({
      partnerId: partner.partnerId,
      txId: newTxId(),
      eventType: "transaction.success",
      sequence: 2,
    });
    await harness.publish(event);
    const [request] = await receiver.waitFor(1, underPath("/unsigned"));
    expect(request!.headers["x-service-event-id"]).toBe(event.eventId);
    for (const header of [
      "x-service-signature",
      "webhook-signature",
      "webhook-timestamp",
      "webhook-id",
      "authorization",
    ]) {
      expect(request!.headers[header], header).toBeUndefined();
    }
  });

  it("turns duplicates of one event into a single delivery", async () => {
    const partner = await harness.createPartner();
    await createConfig(harness, partner, { url: `${receiver.url}/dup` });
    const txId = newTxId();
    const event = transactionEvent({
      partnerId: partner.partnerId,
      txId,
      eventType: "transaction.success",
      sequence: 2,
    });
    await harness.publish(event, event);
    await harness.publish(event);
    await settledDeliveries(harness, partner, `tx_id=${txId}`, 1);
    await sleep(500);
    expect(await deliveriesOf(harness, partner, `tx_id=${txId}`)).toHaveLength(1);
    expect(receiver.requests.filter(underPath("/dup"))).toHaveLength(1);
  });

  it("retries a failing receiver on the schedule and delivers on the third attempt", async () => {
    const partner = await harness.createPartner();
    let calls = 0;
    receiver.behaviour = (request) =>
      underPath("/flaky")(request) && ++calls <= 2
        ? { status: 500, body: "oops" }
        : { status: 200, body: "{}" };
    await createConfig(harness, partner, { url: `${receiver.url}/flaky`, secret: SECRET });
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: partner.partnerId, txId, eventType: "transaction.success", sequence: 2 }),
    );

    const [row] = await settledDeliveries(harness, partner, `tx_id=${txId}`, 1);
    const requests = receiver.requests.filter(underPath("/flaky"));
    expect(requests.map((r) => r.headers["x-service-attempt"])).toEqual(["1", "2", "3"]);
    expect(new Set(requests.map((r) => r.rawBody.toString("base64"))).size).toBe(1);
    expect(new Set(requests.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(requests.every((r) => verifiesServiceSignature(SECRET, r))).toBe(true);
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(150);
    expect(row.attempts).toBe(3);
    expect(row.history.map((a: Json) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, "HTTP 500"],
      [2, 500, "HTTP 500"],
      [3, 200, null],
    ]);
    receiver.behaviour = () => ({ status: 200, body: "{}" });
  });

  it("marks a delivery dead when the schedule is exhausted, and redelivers it on request", async () => {
    const partner = await harness.createPartner();
    let failing = true;
    receiver.behaviour = (request) =>
      failing && underPath("/always")(request) ? { status: 500 } : { status: 200, body: "{}" };
    const config = await createConfig(harness, partner, { url: `${receiver.url}/always` });
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: partner.partnerId, txId, eventType: "transaction.success", sequence: 2 }),
    );

    const [dead] = await settledDeliveries(harness, partner, `tx_id=${txId}`, 1, "dead");
    expect(dead).toMatchObject({
      attempts: 3,
      last_status_code: 500,
      last_error: "HTTP 500",
      next_attempt_at: null,
    });
    expect(dead.history).toHaveLength(3);
    const before = receiver.requests.filter(underPath("/always"));
    expect(before).toHaveLength(3);
    expect((await deliveriesOf(harness, partner, "status=dead")).map((d) => d.delivery_id)).toEqual([
      dead.delivery_id,
    ]);

    failing = false;
    const other = await harness.createPartner();
    const foreign = await harness.api(other, "POST", `/webhookDeliveries/${dead.delivery_id}/redeliver`);
    expect(foreign.status).toBe(404);
    const res = await harness.api(partner, "POST", `/webhookDeliveries/${dead.delivery_id}/redeliver`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ delivery_id: dead.delivery_id, event_id: dead.event_id });
    expect(["pending", "delivering", "delivered"]).toContain(res.json.status);

    const [delivered] = await settledDeliveries(harness, partner, `config_id=${config.config_id}`, 1);
    expect(delivered).toMatchObject({ attempts: 4, last_status_code: 200, last_error: null });
    const after = receiver.requests.filter(underPath("/always"));
    expect(after).toHaveLength(4);
    expect(after[3]!.headers["x-service-attempt"]).toBe("4");
    expect(after[3]!.rawBody.equals(before[0]!.rawBody)).toBe(true);
    receiver.behaviour = () => ({ status: 200, body: "{}" });
  });

  it("deactivates a configuration whose receiver answers 410 Gone", async () => {
    const partner = await harness.createPartner();
    receiver.behaviour = (request) =>
      underPath("/gone")(request) ? { status: 410 } : { status: 200, body: "{}" };
    const config = await createConfig(harness, partner, { url: `${receiver.url}/gone` });
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: partner.partnerId, txId, eventType: "transaction.success", sequence: 2 }),
    );

    const [dead] = await settledDeliveries(harness, partner, `tx_id=${txId}`, 1, "dead");
    expect(dead).toMatchObject({ attempts: 1, last_status_code: 410 });
    const list = await harness.api(partner, "GET", "/webhookConfigs");
    const disabled = list.json.webhook_configs.find((c: Json) => c.config_id === config.config_id);
    expect(disabled.active).toBe(false);
    expect(disabled.disabled_reason).toMatch(/410 Gone/);

    const refused = await harness.api(partner, "POST", `/webhookDeliveries/${dead.delivery_id}/redeliver`);
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe("WEBHOOK_CONFIG_INACTIVE");

    const later = newTxId();
    await harness.publish(
      transactionEvent({
        partnerId: partner.partnerId,
        txId: later,
        eventType: "transaction.success",
        sequence: 2,
      }),
    );
    await sleep(800);
    expect(await deliveriesOf(harness, partner, `tx_id=${later}`)).toEqual([]);
    expect(receiver.requests.filter(underPath("/gone"))).toHaveLength(1);

    const reactivated = await harness.api(partner, "PATCH", `/webhookConfigs/${config.config_id}`, {
      active: true,
    });
    expect(reactivated.json).toMatchObject({ active: true, disabled_reason: null });
    receiver.behaviour = () => ({ status: 200, body: "{}" });
  });

  it("honours Retry-After within twice the scheduled delay", async () => {
    const partner = await harness.createPartner();
    let calls = 0;
    receiver.behaviour = (request) =>
      underPath("/later")(request) && ++calls === 1
        ? { status: 503, headers: { "Retry-After": "30" } }
        : { status: 200, body: "{}" };
    await createConfig(harness, partner, { url: `${receiver.url}/later` });
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: partner.partnerId, txId, eventType: "transaction.success", sequence: 2 }),
    );

    await settledDeliveries(harness, partner, `tx_id=${txId}`, 1);
    const [first, second] = receiver.requests.filter(underPath("/later"));
    // Without Retry-After the wait is 200 ms ± 20 % (at most 240); with it, 2 × that (at least 320).
    const gap = second!.receivedAt - first!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(300);
    expect(gap).toBeLessThan(2000);
    receiver.behaviour = () => ({ status: 200, body: "{}" });
  });

  it("never sends refunded before success for one configuration, even when success first fails", async () => {
    const partner = await harness.createPartner();
    let successCalls = 0;
    receiver.behaviour = (request) =>
      underPath("/ordered")(request) && request.path.endsWith("/success") && ++successCalls === 1
        ? { status: 500 }
        : { status: 200, body: '{"received":true,"message":"ok"}' };
    await createConfig(harness, partner, { url: `${receiver.url}/ordered` });
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: partner.partnerId, txId, eventType: "transaction.success", sequence: 2 }),
      transactionEvent({
        partnerId: partner.partnerId,
        txId,
        eventType: "transaction.refunded",
        sequence: 3,
      }),
    );

    await settledDeliveries(harness, partner, `tx_id=${txId}`, 2);
    const requests = receiver.requests.filter(underPath("/ordered"));
    expect(requests.map((r) => r.path.split("/").at(-1))).toEqual(["success", "success", "refunded"]);
    expect(requests[2]!.receivedAt).toBeGreaterThanOrEqual(requests[1]!.receivedAt);
    receiver.behaviour = () => ({ status: 200, body: "{}" });
  });

  it("does not let a slow receiver delay another receiver's deliveries", async () => {
    const slowPartner = await harness.createPartner();
    const fastPartner = await harness.createPartner();
    const slow = await startTestReceiver(() => ({ status: 200, body: "{}", delayMs: 2500 }));
    try {
      await createConfig(harness, slowPartner, { url: slow.url });
      await createConfig(harness, fastPartner, { url: `${receiver.url}/fast` });
      await harness.publish(
        ...Array.from({ length: 12 }, () =>
          transactionEvent({
            partnerId: slowPartner.partnerId,
            txId: newTxId(),
            eventType: "transaction.success",
            sequence: 2,
          }),
        ),
      );
      await slow.waitFor(1);
      const published = Date.now();
      await harness.publish(
        transactionEvent({
          partnerId: fastPartner.partnerId,
          txId: newTxId(),
          eventType: "transaction.success",
          sequence: 2,
        }),
      );
      const [fast] = await receiver.waitFor(1, underPath("/fast"), 5000);
      expect(fast!.receivedAt - published).toBeLessThan(1500);
      // The slow receiver is still working through its queue, at most 4 at a time.
      const slowRows = await deliveriesOf(harness, slowPartner, "limit=100");
      expect(slowRows.filter((row) => row.status === "delivered").length).toBeLessThan(12);
      expect(slowRows.filter((row) => row.status === "delivering").length).toBeLessThanOrEqual(4);
    } finally {
      await slow.close();
    }
  });
});
