import type { EventMessage } from "@payouts/platform/events/event-bus";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
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

  it("leaves the group on stop: a replacement takes the partitions at once, not after the 30 s session", async () => {
    const topic = uniqueTopic("test.events");
    const groupId = `${topic}.group`;
    const timing = {
      retry: { initialRetryTime: 100, maxRetryTime: 1_000, retries: 10 },
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
    };
    const first = createKafkaEventBus({ brokers: kafkaBrokers(), clientId: "test-bus-first", timing });
    const second = createKafkaEventBus({ brokers: kafkaBrokers(), clientId: "test-bus-second", timing });
    try {
      const received: string[] = [];
      const handler = async (m: EventMessage) => void received.push(m.key);
      const sub = await first.subscribe({ topic, groupId, handler });
      await sub.stop();
      const began = performance.now();
      await second.subscribe({ topic, groupId, handler });
      expect(performance.now() - began).toBeLessThan(10_000);
      await second.publish([{ topic, key: "after", value: new Uint8Array([1]), headers: {} }]);
      await waitFor(() => received.includes("after"), 10_000);
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);

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

  it("redelivers after a handler error that cannot be turned into JSON (a circular object on it)", async () => {
    // kafkajs serialises a failed handler's error; one carrying a circular structure (a protobuf
    // descriptor, a database client) used to crash the consumer for good instead of retrying.
    const topic = uniqueTopic("test.circular");
    let attempts = 0;
    const done: string[] = [];
    const sub = await bus.subscribe({
      topic,
      groupId: `${topic}.group`,
      handler: async (m) => {
        attempts++;
        if (attempts <= 2) {
          const circular: Record<string, unknown> = { name: "descriptor" };
          circular.self = circular;
          throw Object.assign(new Error("store failed"), { detail: circular });
        }
        done.push(new TextDecoder().decode(m.value));
      },
    });
    await bus.publish([{ topic, key: "k", value: new TextEncoder().encode("kept"), headers: {} }]);
    await waitFor(() => done.length === 1, 60_000);
    await sub.stop();
    expect(done).toEqual(["kept"]);
    expect(attempts).toBe(3);
  });

  it("hands a batch handler consecutive messages of a partition, at most maxBatch, and commits them", async () => {
    const topic = uniqueTopic("test.batches");
    const groupId = `${topic}.group`;
    const enc = new TextEncoder();
    const messages: EventMessage[] = Array.from({ length: 40 }, (_, i) => ({
      topic,
      key: `tx_${i % 4}`,
      value: enc.encode(String(i)),
      headers: { "event-id": `e${i}` },
    }));
    await bus.publish(messages);
    const batches: EventMessage[][] = [];
    const sub = await bus.subscribe({
      topic,
      groupId,
      maxBatch: 7,
      batchHandler: async (batch) => void batches.push([...batch]),
    });
    await waitFor(() => batches.flat().length >= 40);
    await sub.stop();
    const received = batches.flat();
    expect(new Set(received.map((m) => m.headers["event-id"])).size).toBe(40);
    expect(batches.every((b) => b.length >= 1 && b.length <= 7)).toBe(true);
    // Published before the consumer started, so at least one fetch brought more than one message.
    expect(batches.some((b) => b.length > 1)).toBe(true);
    for (const key of ["tx_0", "tx_1", "tx_2", "tx_3"]) {
      const values = received
        .filter((m) => m.key === key)
        .map((m) => Number(new TextDecoder().decode(m.value)));
      expect(values).toEqual([...values].sort((a, b) => a - b));
    }
    // The same group again: everything was committed, nothing comes back.
    const again: EventMessage[] = [];
    const second = await bus.subscribe({
      topic,
      groupId,
      batchHandler: async (batch) => void again.push(...batch),
    });
    await bus.publish([{ topic, key: "tx_0", value: enc.encode("last"), headers: { "event-id": "last" } }]);
    await waitFor(() => again.length >= 1);
    await second.stop();
    expect(again.map((m) => m.headers["event-id"])).toEqual(["last"]);
  });

  it("redelivers the whole batch whose handler failed", async () => {
    const topic = uniqueTopic("test.batch-retry");
    const enc = new TextEncoder();
    await bus.publish(
      ["a", "b", "c"].map((v) => ({ topic, key: "k", value: enc.encode(v), headers: { "event-id": v } })),
    );
    let calls = 0;
    const done: string[] = [];
    const sub = await bus.subscribe({
      topic,
      groupId: `${topic}.group`,
      batchHandler: async (batch) => {
        calls++;
        if (calls === 1) throw new Error("transient");
        done.push(...batch.map((m) => new TextDecoder().decode(m.value)));
      },
    });
    await waitFor(() => done.length >= 3, 60_000);
    await sub.stop();
    expect(done).toEqual(["a", "b", "c"]);
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});

describe("in-process EventBus with a batch handler", () => {
  it("hands each publish call's messages of the topic over at once, in order", async () => {
    const bus = createInProcessEventBus();
    const batches: string[][] = [];
    await bus.subscribe({
      topic: "t",
      groupId: "g",
      batchHandler: async (batch) => void batches.push(batch.map((m) => m.key)),
    });
    const message = (key: string, topic = "t"): EventMessage => ({
      topic,
      key,
      value: new Uint8Array(),
      headers: {},
    });
    await bus.subscribe({ topic: "other", groupId: "g", handler: async () => {} });
    await bus.publish([message("1"), message("x", "other"), message("2")]);
    await bus.publish([message("3")]);
    await bus.close();
    expect(batches).toEqual([["1", "2"], ["3"]]);
  });
});
