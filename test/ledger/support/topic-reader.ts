/** Reads the transaction-events topic with a consumer group of its own and keeps the messages of given keys. */
import { fromBinary } from "@bufbuild/protobuf";
import { TRANSACTION_EVENTS_TOPIC } from "@payouts/platform/events/event-bus";
import { type TransactionEvent, TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { Kafka, logLevel } from "kafkajs";

export interface ReadEvent {
  readonly key: string;
  readonly headers: Record<string, string>;
  readonly event: TransactionEvent;
}

export async function readTopic(brokers: string, keys: () => ReadonlySet<string>) {
  const kafka = new Kafka({
    clientId: "ledger-test-reader",
    brokers: brokers.split(","),
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `ledger-test-${Math.random().toString(36).slice(2)}` });
  const events: ReadEvent[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic: TRANSACTION_EVENTS_TOPIC, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const key = message.key?.toString() ?? "";
      if (!keys().has(key) || !message.value) return;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(message.headers ?? {})) if (v !== undefined) headers[k] = String(v);
      events.push({ key, headers, event: fromBinary(TransactionEventSchema, new Uint8Array(message.value)) });
    },
  });
  return { events, stop: () => consumer.disconnect() };
}

/** The events of one key with duplicates (same event id) removed, in arrival order. */
export function distinctOf(events: readonly ReadEvent[], key: string): ReadEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => e.key === key && !seen.has(e.event.eventId) && seen.add(e.event.eventId));
}
