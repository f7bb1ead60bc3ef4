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

/**
 * The hot path: a delivery the dispatcher can send at once is stored already claimed by its own worker
 * and sent without a claim statement; anything the claim would hold back (an earlier event of the same
 * transaction still unsettled, a paused receiver, a receiver at its cap) is stored pending as before.
 *
 * Every status change of webhooks.deliveries is logged by a trigger of the test database: an insert with
 * its status, and each pending → delivering update (what only the claim does).
 */
describe("deliveries sent straight from intake", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;
  let partner: Partner;

  beforeAll(async () => {
    harness = await startWebhookHarness();
    receiver = await startTestReceiver((request) => ({
      status: 200,
      body: "{}",
      delayMs: request.path.startsWith("/slow") ? 1_500 : 0,
    }));
    partner = await harness.createPartner();
    await harness.db.query(
      `CREATE TABLE public.delivery_log (delivery_id text NOT NULL, change text NOT NULL, status text NOT NULL,
                                         at timestamptz NOT NULL DEFAULT clock_timestamp());
       CREATE FUNCTION public.log_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         INSERT INTO public.delivery_log (delivery_id, change, status)
         VALUES (NEW.delivery_id, CASE WHEN TG_OP = 'INSERT' THEN 'insert' ELSE 'claim' END, NEW.status);
         RETURN NULL;
       END $$;
       CREATE TRIGGER log_insert AFTER INSERT ON webhooks.deliveries
         FOR EACH ROW EXECUTE FUNCTION public.log_delivery();
       CREATE TRIGGER log_claim AFTER UPDATE ON webhooks.deliveries
         FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status = 'delivering')
         EXECUTE FUNCTION public.log_delivery();`,
    );
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  const logOf = async (deliveryId: string) =>
    (
      await harness.db.query<{ change: string; status: string }>(
        "SELECT change, status FROM public.delivery_log WHERE delivery_id = $1 ORDER BY at",
        [deliveryId],
      )
    ).rows.map((r) => `${r.change} ${r.status}`);

  it("sends a stored delivery at once, claimed by the statement that stored it: no claim", async () => {
    await createConfig(harness, partner, { url: `${receiver.url}/fast`, events: ["transaction.success"] });
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: partner.partnerId, txId, eventType: "transaction.success", sequence: 1 }),
    );

    const [row] = await settledDeliveries(harness, partner, `tx_id=${txId}`, 1);
    expect(await logOf(row.delivery_id)).toEqual(["insert delivering"]);
    expect(row.attempts).toBe(1);
    const attempts = await harness.db.query<{ attempt: number; status_code: number }>(
      "SELECT attempt, status_code FROM webhooks.delivery_attempts WHERE delivery_id = $1",
      [row.delivery_id],
    );
    expect(attempts.rows).toEqual([{ attempt: 1, status_code: 200 }]);
  });

  it("stores the successor of an in-flight delivery pending and sends it after its predecessor's answer", async () => {
    const other = await harness.createPartner();
    await createConfig(harness, other, {
      url: `${receiver.url}/slow`,
      events: ["transaction.success", "transaction.refunded"],
    });
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: other.partnerId, txId, eventType: "transaction.success", sequence: 2 }),
    );
    const [first] = await receiver.waitFor(1, (r) => r.path === "/slow/webhooks/transactions/success");
    await harness.publish(
      transactionEvent({ partnerId: other.partnerId, txId, eventType: "transaction.refunded", sequence: 3 }),
    );

    const rows = await settledDeliveries(harness, other, `tx_id=${txId}`, 2);
    const success = rows.find((r) => r.event_type === "transaction.success");
    const refunded = rows.find((r) => r.event_type === "transaction.refunded");
    expect(await logOf(success.delivery_id)).toEqual(["insert delivering"]);
    expect(await logOf(refunded.delivery_id)).toEqual(["insert pending", "claim delivering"]);
    const [second] = await receiver.waitFor(1, (r) => r.path === "/slow/webhooks/transactions/refunded");
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(1_500);
  });

  it("stores both events of a transaction arriving in one batch with only the first one claimed", async () => {
    const other = await harness.createPartner();
    await createConfig(harness, other, {
      url: `${receiver.url}/fast`,
      events: ["transaction.success", "transaction.refunded"],
    });
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: other.partnerId, txId, eventType: "transaction.success", sequence: 2 }),
      transactionEvent({ partnerId: other.partnerId, txId, eventType: "transaction.refunded", sequence: 3 }),
    );

    const rows = await settledDeliveries(harness, other, `tx_id=${txId}`, 2);
    const success = rows.find((r) => r.event_type === "transaction.success");
    const refunded = rows.find((r) => r.event_type === "transaction.refunded");
    expect(await logOf(success.delivery_id)).toEqual(["insert delivering"]);
    expect(await logOf(refunded.delivery_id)).toEqual(["insert pending", "claim delivering"]);
  });

  it("stores a paused receiver's deliveries pending", async () => {
    const other = await harness.createPartner();
    const config = await createConfig(harness, other, {
      url: `${receiver.url}/fast`,
      events: ["transaction.success"],
    });
    await harness.db.query("UPDATE webhooks.configs SET paused = true WHERE config_id = $1", [
      config.config_id,
    ]);
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: other.partnerId, txId, eventType: "transaction.success", sequence: 1 }),
    );

    const inserted = await eventually(async () => {
      const res = await harness.db.query<{ delivery_id: string }>(
        "SELECT delivery_id FROM webhooks.deliveries WHERE tx_id = $1",
        [txId],
      );
      return res.rows[0];
    });
    expect((await logOf(inserted.delivery_id))[0]).toBe("insert pending");
  });

  it("claims at intake no more than the receiver's cap of 4 live deliveries", async () => {
    const other = await harness.createPartner();
    await createConfig(harness, other, { url: `${receiver.url}/slow-cap`, events: ["transaction.success"] });
    const txIds = Array.from({ length: 6 }, () => newTxId());
    await harness.publish(
      ...txIds.map((txId) =>
        transactionEvent({ partnerId: other.partnerId, txId, eventType: "transaction.success", sequence: 1 }),
      ),
    );

    const rows = await settledDeliveries(harness, other, "", 6);
    const logs = await Promise.all(rows.map((r) => logOf(r.delivery_id)));
    const claimedAtIntake = logs.filter((log) => log[0] === "insert delivering").length;
    expect(claimedAtIntake).toBeGreaterThan(0);
    expect(claimedAtIntake).toBeLessThanOrEqual(4);
    expect(logs.filter((log) => log[0] === "insert pending")).toHaveLength(6 - claimedAtIntake);
  });
});
