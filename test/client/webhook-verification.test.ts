/**
 * verifyWebhook against notifications signed by the REAL dispatcher: a receiver on 127.0.0.1 captures the
 * raw bytes and headers of what the platform sends for a settled and a refunded payout, a failed one, and
 * test notifications around a secret rotation.
 */
import { type PayoutsClient, verifyWebhook, WebhookVerificationError } from "@payouts/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  type ReceivedRequest,
  startTestReceiver,
  type TestReceiver,
} from "../webhooks/support/test-receiver.js";
import {
  BR_PIX_DESTINATION,
  BR_SENDER,
  clientOf,
  type FundedPartner,
  fundedPartner,
  quotedTransaction,
  setUpBrazil,
} from "./support/client-fixtures.js";

const SECRET = "client-verification-secret-0123";

let platform: TestPlatform;
let receiver: TestReceiver;
let partner: FundedPartner;
let client: PayoutsClient;
let customerId: string;

beforeAll(async () => {
  platform = await startTestPlatform({
    env: { QUOTE_TTL_MS: "600000", WEBHOOK_RETRY_SCHEDULE_MS: "0,200,200" },
  });
  await setUpBrazil(platform);
  receiver = await startTestReceiver();
  partner = await fundedPartner(platform, "100");
  client = clientOf(platform, partner);
  customerId = (await client.createCustomer(BR_SENDER)).customer_id;
});
afterAll(async () => {
  await receiver?.close();
  await platform?.close();
});

async function reasonOf(call: Promise<unknown>): Promise<string | undefined> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

const under = (prefix: string) => (request: ReceivedRequest) => request.path.startsWith(prefix);

describe("notifications signed by the real dispatcher", () => {
  it("verify and answer the typed event: success, refund, failure", async () => {
    await client.createWebhookConfig({ url: `${receiver.url}/events`, secret: SECRET });
    const paid = await quotedTransaction(client, customerId);
    await client.executePayout({ tx_id: paid });
    expect(
      (await platform.admin("POST", `/admin/sandbox/transactions/${paid}/settle`, { outcome: "SUCCESS" }))
        .status,
    ).toBe(200);
    expect(
      (await platform.admin("POST", `/admin/transactions/${paid}/refund`, { reason: "client test" })).status,
    ).toBe(200);
    const lookup = await client.lookupPaymentCode({ customer_id: customerId, ...BR_PIX_DESTINATION });
    await client.getQuotation({ tx_id: lookup.tx_id, amount: 54 });
    await client.executePayout({ tx_id: lookup.tx_id });
    const failed = await platform.admin("POST", `/admin/sandbox/transactions/${lookup.tx_id}/settle`, {
      outcome: "FAILED",
      reason: "closed account",
    });
    expect(failed.status, failed.text).toBe(200);

    const requests = await receiver.waitFor(3, under("/events/"), 30_000);
    const verified = await Promise.all(requests.map((r) => verifyWebhook(r.rawBody, r.headers, SECRET)));
    const txEvents = verified.map(({ event }) => {
      if (event.event_type === "statement.closed" || event.event_type === "batch.completed") {
        throw new Error(`a ${event.event_type} event, not a payout's`);
      }
      // A single payout's notification names no batch.
      expect(event.batch_id).toBeUndefined();
      return event;
    });
    // Each transaction's events arrive in order; the two transactions' may interleave.
    expect(txEvents.map((e) => [e.tx_id, e.event_type, e.status]).sort()).toEqual(
      [
        [paid, "transaction.success", "SUCCESS"],
        [paid, "transaction.refunded", "REFUNDED"],
        [lookup.tx_id, "transaction.failed", "FAILED"],
      ].sort(),
    );
    expect(txEvents.filter((e) => e.tx_id === paid).map((e) => e.status)).toEqual(["SUCCESS", "REFUNDED"]);
    for (const [i, v] of verified.entries()) {
      expect(v.id).toBe(v.event.event_id);
      expect(v.id).toBe(requests[i]!.headers["x-service-event-id"]);
      expect(Math.abs(v.timestamp - Date.now() / 1000)).toBeLessThan(60);
    }
    const refunded = verified[1]!.event;
    if (refunded.event_type === "transaction.refunded") expect(refunded.refund_reason).toBe("client test");
    const failure = verified[2]!.event;
    if (failure.event_type === "transaction.failed")
      expect(failure.failure_reason).toContain("closed account");
  });

  it("refuse a changed byte, another secret, and a replay outside the tolerance", async () => {
    const [request] = await receiver.waitFor(1, under("/events/"));
    const { rawBody, headers } = request!;
    const tampered = Buffer.from(rawBody);
    const at = tampered.indexOf(":") + 2;
    tampered[at] = tampered[at]! ^ 1;
    expect(await reasonOf(verifyWebhook(tampered, headers, SECRET))).toBe("INVALID_SIGNATURE");
    expect(await reasonOf(verifyWebhook(rawBody, headers, "another-secret-0123456789"))).toBe(
      "INVALID_SIGNATURE",
    );
    const sentAt = Number(headers["webhook-timestamp"]) * 1000;
    expect(await reasonOf(verifyWebhook(rawBody, headers, SECRET, { now: sentAt + 301_000 }))).toBe(
      "TIMESTAMP_OUT_OF_TOLERANCE",
    );
    await expect(verifyWebhook(rawBody, headers, SECRET, { now: sentAt + 299_000 })).resolves.toBeDefined();
    // The JSON re-serialised is other bytes: verification is over the raw body only.
    const reserialised = JSON.stringify(JSON.parse(rawBody.toString("utf8")), null, 1);
    expect(await reasonOf(verifyWebhook(reserialised, headers, SECRET))).toBe("INVALID_SIGNATURE");
  });

  it("hold across a secret rotation: the new secret, or both, during the grace period", async () => {
    const config = await client.createWebhookConfig({ url: `${receiver.url}/rotating`, secret: SECRET });
    const before = await client.testWebhookConfig(config.config_id);
    expect(before).toMatchObject({ delivered: true, status_code: 200 });
    const rotation = await client.rotateWebhookSecret(config.config_id, { grace_period_seconds: 3600 });
    const after = await client.testWebhookConfig(config.config_id);
    expect(after).toMatchObject({ delivered: true, status_code: 200 });

    const [first, second] = await receiver.waitFor(2, under("/rotating/"));
    const test = await verifyWebhook(first!.rawBody, first!.headers, SECRET);
    expect(test.event).toMatchObject({ test: true, event_type: "transaction.success" });
    expect(String(second!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    await expect(verifyWebhook(second!.rawBody, second!.headers, rotation.secret)).resolves.toBeDefined();
    await expect(
      verifyWebhook(second!.rawBody, second!.headers, [SECRET, rotation.secret]),
    ).resolves.toBeDefined();
    // X-SERVICE-Signature carries only the new secret from the rotation on.
    expect(await reasonOf(verifyWebhook(second!.rawBody, second!.headers, SECRET))).toBe("INVALID_SIGNATURE");
  });
});
