/**
 * The outbox relay against real Kafka: the full flow with the sandbox rail settling on its own produces
 * the transaction's events on payouts.transaction-events.v1 in order (key = tx_id, id and type headers);
 * a rail failure produces transaction.failed with the debit reversed; and with the broker stopped while
 * payouts go on, every event arrives after the restart, in order per transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kafkaBrokers } from "../support/infra.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { waitFor } from "./support/ledger-harness.js";
import { type OwnKafkaBroker, startOwnKafkaBroker } from "./support/own-kafka-broker.js";
import {
  balance,
  executePayout,
  fundedPartner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "./support/payout-fixtures.js";
import { distinctOf, readTopic } from "./support/topic-reader.js";

describe("outbox relay on the shared broker", () => {
  let platform: TestPlatform;
  const keys = new Set<string>();
  let reader: Awaited<ReturnType<typeof readTopic>>;

  beforeAll(async () => {
    platform = await startTestPlatform({ kafka: true, env: { SANDBOX_AUTO_SETTLE_MS: "200" } });
    await setUpCorridor(platform);
    reader = await readTopic(kafkaBrokers().join(","), () => keys);
  });
  afterAll(async () => {
    await reader.stop();
    await platform.close();
  });

  it("lookup → quote → execute → automatic success → refund: the events on the topic in order", async () => {
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId);
    keys.add(txId);
    await quoted(platform, partner, txId);
    expect((await executePayout(platform, partner, txId, "kafka-flow")).status).toBe(200);
    expect(await balance(platform, partner.partnerId)).toBe("89.55");
    await waitFor("automatic settlement", async () => {
      const view = await platform.partner(partner, "GET", `/transactions/${txId}`);
      return view.json.status === "SUCCESS" || undefined;
    });
    expect(await balance(platform, partner.partnerId)).toBe("89.55");
    const refund = await platform.admin("POST", `/admin/transactions/${txId}/refund`, {
      reason: "sent twice",
    });
    expect(refund.status).toBe(200);
    expect(await balance(platform, partner.partnerId)).toBe("100");

    const events = await waitFor(
      "four events on Kafka",
      () => {
        const list = distinctOf(reader.events, txId);
        return list.length >= 4 ? list : undefined;
      },
      30_000,
    );
    expect(events.map((e) => e.event.eventType)).toEqual([
      "transaction.created",
      "transaction.processing",
      "transaction.success",
      "transaction.refunded",
    ]);
    expect(events.map((e) => Number(e.event.sequence))).toEqual([1, 2, 3, 4]);
    for (const e of events) {
      expect(e.headers["event-id"]).toBe(e.event.eventId);
      expect(e.headers["event-type"]).toBe(e.event.eventType);
    }
    expect(events[2]!.event).toMatchObject({
      status: "SUCCESS",
      amount: "15000",
      currency: "NGN",
      amountUsd: "10",
      percentageFee: "0.15",
      fixedFee: "0.3",
      fee: "0.45",
    });
    expect(events[3]!.event.refundReason).toBe("sent twice");
  });

  it("a sandbox failure destination fails the payout, reverses the debit and publishes transaction.failed", async () => {
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId, { paymentDestination: "0000009999" });
    keys.add(txId);
    await quoted(platform, partner, txId);
    await executePayout(platform, partner, txId, "kafka-fail");
    const view = await waitFor("automatic failure", async () => {
      const res = await platform.partner(partner, "GET", `/transactions/${txId}`);
      return res.json.status === "FAILED" ? res.json : undefined;
    });
    expect(view.failure_reason).toMatch(/sandbox/);
    expect(await balance(platform, partner.partnerId)).toBe("100");
    const events = await waitFor(
      "failed event",
      () => {
        const list = distinctOf(reader.events, txId);
        return list.length >= 3 ? list : undefined;
      },
      30_000,
    );
    expect(events.map((e) => e.event.eventType)).toEqual([
      "transaction.created",
      "transaction.processing",
      "transaction.failed",
    ]);
    expect(events[2]!.event.failureReason).toMatch(/sandbox/);
  });
});

describe("outbox relay while the broker is down", () => {
  let broker: OwnKafkaBroker;
  let platform: TestPlatform;

  beforeAll(async () => {
    broker = await startOwnKafkaBroker();
    platform = await startTestPlatform({ env: { KAFKA_BROKERS: broker.brokers } });
    await setUpCorridor(platform);
  }, 240_000);
  afterAll(async () => {
    await platform?.close();
    broker?.destroy();
  }, 120_000);

  it("keeps events in the outbox while Kafka is stopped and delivers all of them, in order, after it restarts", async () => {
    const partner = await fundedPartner(platform, "1000");
    const txIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const txId = await pendingTransaction(platform, partner.partnerId);
      await quoted(platform, partner, txId);
      txIds.push(txId);
    }
    const settle = (txId: string) =>
      platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, { outcome: "SUCCESS" });
    const keys = new Set(txIds);
    const unpublished = async () =>
      Number(
        (
          await platform.runtime.db.query<{ n: string }>(
            "SELECT count(*) AS n FROM ledger.outbox WHERE published_at IS NULL",
          )
        ).rows[0]?.n,
      );

    for (const txId of txIds.slice(0, 2)) {
      await executePayout(platform, partner, txId, `down-${txId}`);
      await settle(txId);
    }
    await waitFor(
      "relay caught up before the stop",
      async () => (await unpublished()) === 0 || undefined,
      30_000,
    );

    await broker.stop();
    for (const txId of txIds.slice(2)) {
      expect((await executePayout(platform, partner, txId, `down-${txId}`)).status).toBe(200);
      expect((await settle(txId)).json.status).toBe("SUCCESS");
    }
    await platform.admin("POST", `/admin/transactions/${txIds[0]}/refund`, { reason: "while down" });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await unpublished()).toBe(9);
    expect(await balance(platform, partner.partnerId)).toBe("947.75");

    broker.start();
    await waitFor(
      "relay drained after the restart",
      async () => (await unpublished()) === 0 || undefined,
      120_000,
    );

    const reader = await readTopic(broker.brokers, () => keys);
    try {
      const expectedCounts = txIds.map((_, i) => (i === 0 ? 4 : 3));
      await waitFor(
        "every event on the topic",
        () =>
          txIds.every((txId, i) => distinctOf(reader.events, txId).length >= expectedCounts[i]!) || undefined,
        60_000,
      );
      for (const [i, txId] of txIds.entries()) {
        const sequences = distinctOf(reader.events, txId).map((e) => Number(e.event.sequence));
        expect(sequences, txId).toEqual(Array.from({ length: expectedCounts[i]! }, (_, k) => k + 1));
      }
    } finally {
      await reader.stop();
    }
  }, 240_000);
});
