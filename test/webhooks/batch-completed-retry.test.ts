/**
 * batch.completed through a receiver that answers 503 for 20 seconds from the first request to each of its
 * two endpoints (the items' transaction.success, then batch.completed), then 2xx, on the whole platform
 * (real PostgreSQL and Kafka). The retry schedule is shortened for this platform only
 * (WEBHOOK_RETRY_SCHEDULE_MS in its env). Retries carry the same event id; the batch is acknowledged once,
 * only once every item payout is final, and only after every item's transaction.success (to the partner's
 * other configuration) was acknowledged: batch.completed is not even tried before.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FundedPartner, fundedPartner, setUpBrazil } from "../client/support/client-fixtures.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { approvedTwoItemBatch } from "./support/batch-fixtures.js";
import { startTestReceiver, type TestReceiver } from "./support/test-receiver.js";
import { sleep } from "./support/webhook-fixtures.js";

const SECRET = "batch-retry-secret-0123456789abcdef";
const REFUSING_MS = 20_000;

interface Answered {
  readonly path: string;
  readonly eventId: string;
  readonly status: number;
  readonly at: number;
}

describe("batch.completed to a receiver down for 20 seconds", () => {
  let platform: TestPlatform;
  let receiver: TestReceiver;
  let partner: FundedPartner;
  /** The first request to each endpoint (`batches`, `items`): each is refused for 20 s from then. */
  const firstRequestAt = new Map<string, number>();
  const answered: Answered[] = [];
  /** Item statuses read when the receiver acknowledged batch.completed. */
  let statusesOnAck: Promise<string[]> | undefined;

  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    platform.partner(partner, method, path, body, headers);

  const itemStatuses = async (batchId: string): Promise<string[]> => {
    const items = await call("GET", `/batches/${batchId}/items`);
    return (items.json.items as { item_ref: string; status: string }[]).map(
      (i) => `${i.item_ref}:${i.status}`,
    );
  };

  beforeAll(async () => {
    platform = await startTestPlatform({
      kafka: true,
      env: {
        WEBHOOK_CONSUMER_GROUP: `batch-retry-${randomBytes(4).toString("hex")}`,
        // Shortened for this platform only: attempts for about 40 s, so the 20 s outage is outlived.
        WEBHOOK_RETRY_SCHEDULE_MS: "0,1000,2000,4000,4000,4000,4000,4000,4000,4000,4000",
        WEBHOOK_CIRCUIT_FAILURE_THRESHOLD: "1000",
        QUOTE_TTL_MS: "600000",
        SANDBOX_AUTO_SETTLE_MS: "200",
        BATCH_WORK_INTERVAL_MS: "100",
        RAIL_RETRY_INTERVAL_MS: "200",
      },
    });
    await setUpBrazil(platform);
    receiver = await startTestReceiver((request) => {
      const now = Date.now();
      const endpoint = request.path.split("/")[1] ?? "";
      if (!firstRequestAt.has(endpoint)) firstRequestAt.set(endpoint, now);
      const status = now - firstRequestAt.get(endpoint)! < REFUSING_MS ? 503 : 200;
      answered.push({ path: request.path, eventId: String(request.headers["webhook-id"]), status, at: now });
      if (status === 200 && request.path.startsWith("/batches/") && statusesOnAck === undefined) {
        statusesOnAck = itemStatuses(String(JSON.parse(request.rawBody.toString("utf8")).batch_id));
      }
      return { status, body: "{}" };
    });
    partner = await fundedPartner(platform, "1000");
  });
  afterAll(async () => {
    await platform?.close();
    await receiver?.close();
  });

  it("acknowledges batch.completed once, after every item's transaction.success, with every item paid", async () => {
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
    }
    const batchId = await approvedTwoItemBatch(call, "retry");

    const acked = (prefix: string) => answered.filter((a) => a.path.startsWith(prefix) && a.status === 200);
    const end = Date.now() + 100_000;
    while (acked("/batches/").length === 0 || acked("/items/").length < 2) {
      if (Date.now() > end) throw new Error(`no acknowledged batch.completed: ${JSON.stringify(answered)}`);
      await sleep(200);
    }
    // Long enough for a further copy to arrive if one were sent.
    await sleep(5_000);

    const toBatches = answered.filter((a) => a.path.startsWith("/batches/"));
    // The receiver refused at least once, and every attempt carried the same event id.
    expect(toBatches.some((a) => a.status === 503)).toBe(true);
    expect(new Set(toBatches.map((a) => a.eventId)).size).toBe(1);
    const batchAcks = acked("/batches/");
    expect(batchAcks).toHaveLength(1);
    const itemAcks = acked("/items/");
    expect(new Set(itemAcks.map((a) => a.eventId)).size).toBe(2);
    // When the acknowledged copy arrived, every item payout was final.
    expect(await statusesOnAck).toEqual(["retry-1:SUCCESS", "retry-2:SUCCESS"]);
    expect(batchAcks[0]!.at - firstRequestAt.get("batches")!).toBeGreaterThanOrEqual(REFUSING_MS);
    // Every item's transaction.success, sent to the other configuration, was first tried before
    // batch.completed's first attempt and acknowledged before batch.completed was.
    const toItems = answered.filter((a) => a.path.startsWith("/items/"));
    for (const ack of itemAcks) {
      const firstTry = toItems.find((a) => a.eventId === ack.eventId)!;
      expect(firstTry.at, ack.eventId).toBeLessThan(toBatches[0]!.at);
      expect(ack.at, ack.eventId).toBeLessThanOrEqual(toBatches[0]!.at);
      expect(ack.at, ack.eventId).toBeLessThanOrEqual(batchAcks[0]!.at);
    }

    const log = await call("GET", `/webhookDeliveries?tx_id=${batchId}`);
    expect(
      log.json.deliveries.map((d: { event_type: string; status: string }) => [d.event_type, d.status]),
    ).toEqual([["batch.completed", "delivered"]]);
  }, 160_000);
});
