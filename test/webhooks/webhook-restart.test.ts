import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createKafkaEventBus } from "@payouts/platform/events/kafka-event-bus";
import { newId } from "@payouts/platform/ids";
import { createLogger } from "@payouts/platform/logging/logger";
import { createWebhooksService } from "@payouts/webhooks/webhooks-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port.js";
import { kafkaBrokers } from "../support/infra.js";
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

  it("is ready and delivers stored rows while its consumer waits for a dead member's session to end", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/joining` });
    // A member that died in the group: the broker keeps its partitions for its 20 s session.
    const member = await startGroupMember(harness, 20_000);
    member.kill("SIGKILL");

    const { startMs } = await harness.restartDispatcher();
    expect(startMs).toBeLessThan(3_000);

    const deliveryId = await insertStoredDelivery(harness, partner, config.config_id);
    const [row] = await settledDeliveries(
      harness,
      partner,
      `config_id=${config.config_id}`,
      1,
      "delivered",
      5_000,
    );
    expect(row).toMatchObject({ delivery_id: deliveryId, attempts: 1, last_status_code: 200 });

    // The consumer joins once the dead member is dropped, and takes events again.
    const event = transactionEvent({
      partnerId: partner.partnerId,
      txId: newTxId(),
      eventType: "transaction.success",
      sequence: 2,
    });
    await harness.publish(event);
    await settledDeliveries(harness, partner, `config_id=${config.config_id}`, 2, "delivered", 30_000);
  }, 60_000);

  it("starts and delivers stored rows while the broker is unreachable", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/no-broker` });
    const brokerless = createKafkaEventBus({
      brokers: [`127.0.0.1:${await freePort()}`],
      clientId: "webhook-tests-no-broker",
    });
    const logger = createLogger({ service: "webhook-tests", level: "silent" });
    const dispatcher = createWebhooksService({
      db: harness.db,
      bus: brokerless,
      logger,
      transports: {},
      env: harness.env,
      mode: "distributed",
    });
    await harness.dispatcher.stop();
    // The harness stops this one (once) when it starts a dispatcher on its own bus again below.
    harness.dispatcher = dispatcher;
    try {
      const began = performance.now();
      await dispatcher.start();
      expect(performance.now() - began).toBeLessThan(3_000);
      const deliveryId = await insertStoredDelivery(harness, partner, config.config_id);
      const status = await eventually(async () => {
        const { rows } = await harness.db.query<{ status: string; last_status_code: number | null }>(
          "SELECT status, last_status_code FROM webhooks.deliveries WHERE delivery_id = $1",
          [deliveryId],
        );
        return rows[0]?.status === "delivered" ? rows[0] : undefined;
      }, 5_000);
      expect(status.last_status_code).toBe(200);
    } finally {
      await harness.restartDispatcher();
      await brokerless.close();
    }
  }, 60_000);

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

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const GROUP_MEMBER = join(REPO_ROOT, "test", "webhooks", "support", "group-member-process.ts");

/** A member of the dispatcher's consumer group in a process of its own, once it joined. */
async function startGroupMember(harness: WebhookHarness, sessionTimeoutMs: number): Promise<ChildProcess> {
  const args = [
    kafkaBrokers().join(","),
    harness.topic,
    harness.env.WEBHOOK_CONSUMER_GROUP!,
    String(sessionTimeoutMs),
  ];
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", GROUP_MEMBER, ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`group member did not join: ${output}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("joined\n")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`group member exited (${code}): ${output}`));
    });
  });
  return child;
}

/** A delivery the dispatcher stored earlier and has not attempted yet. */
async function insertStoredDelivery(
  harness: WebhookHarness,
  partner: Partner,
  configId: string,
): Promise<string> {
  const deliveryId = newId("whd");
  await harness.db.query(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body,
       next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, 2, 'transaction.success', $6, now())`,
    [deliveryId, newId("evt"), configId, partner.partnerId, newTxId(), Buffer.from('{"stored":true}')],
  );
  return deliveryId;
}
