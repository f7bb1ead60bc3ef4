import type { EventMessage } from "@payouts/platform/events/event-bus";
import { createKafkaEventBus } from "@payouts/platform/events/kafka-event-bus";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, describe, expect, it } from "vitest";
import { kafkaBrokers, uniqueTopic } from "../support/infra.js";

const waitFor = async (check: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe("EventBus over real Kafka", () => {
  const bus = createKafkaEventBus({ brokers: kafkaBrokers(), clientId: "test-bus", numPartitions: 3 });
  afterAll(() => bus.close());

  it("produces, consumes in a consumer group in key order, and commits the offsets", async () => {
    const topic = uniqueTopic("test.events");
    const groupId = `${topic}.group`;
    const enc = new TextEncoder();
    const messages: EventMessage[] = [];
    for (let i = 0; i < 30; i++) {
      messages.push({
        topic,
        key: `tx_${i % 3}`,
        value: enc.encode(String(i)),
        headers: { "event-id": `e${i}` },
      });
    }
    const received: EventMessage[] = [];
    const sub = await bus.subscribe({ topic, groupId, handler: async (m) => void received.push(m) });
    await bus.publish(messages);
    await waitFor(() => received.length >= 30);

    for (const key of ["tx_0", "tx_1", "tx_2"]) {
      const values = received
        .filter((m) => m.key === key)
        .map((m) => Number(new TextDecoder().decode(m.value)));
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(values).toHaveLength(10);
    }
    expect(received[0]!.headers["event-id"]).toMatch(/^e\d+$/);

    // Offsets are committed after the handler resolved; the consumer flushes them within its commit interval.
    const admin = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    let committed = 0;
    const end = Date.now() + 15_000;
    while (committed < 30 && Date.now() < end) {
      const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
      committed = offsets[0]!.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
      if (committed < 30) await new Promise((r) => setTimeout(r, 200));
    }
    await admin.disconnect();
    await sub.stop();
    expect(committed).toBe(30);
  });

  it("redelivers a message whose handler failed instead of skipping it", async () => {
    const topic = uniqueTopic("test.retry");
    let attempts = 0;
    const done: string[] = [];
    const sub = await bus.subscribe({
      topic,
      groupId: `${topic}.group`,
      handler: async (m) => {
        attempts++;
        if (attempts === 1) throw new Error("transient");
        done.push(new TextDecoder().decode(m.value));
      },
    });
    await bus.publish([{ topic, key: "k", value: new TextEncoder().encode("only"), headers: {} }]);
    await waitFor(() => done.length === 1, 60_000);
    await sub.stop();
    expect(done).toEqual(["only"]);
    expect(attempts).toBeGreaterThanOrEqual(2);
  });
});
