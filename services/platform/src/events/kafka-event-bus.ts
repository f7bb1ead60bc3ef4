import { type Consumer, Kafka, type KafkaMessage, logLevel, type Producer } from "kafkajs";
import { createConsumerLagRecorder } from "../telemetry/consumer-lag.js";
import {
  DEFAULT_MAX_BATCH,
  type EventBus,
  type EventMessage,
  type SubscribeOptions,
  type Subscription,
} from "./event-bus.js";
import { DEFAULT_KAFKA_TIMING, type KafkaSecurity, type KafkaTiming } from "./kafka-client-config.js";

process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= "1";

export interface KafkaEventBusOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Partitions for topics this bus creates; keys keep their order inside a partition. */
  readonly numPartitions?: number;
  /** TLS and SASL of the connections (kafka-client-config.ts); plaintext and anonymous when absent. */
  readonly security?: KafkaSecurity;
  /** Retries and group membership timing (kafka-client-config.ts); DEFAULT_KAFKA_TIMING when absent. */
  readonly timing?: KafkaTiming;
}

/**
 * kafkajs behind the EventBus interface. Producer: idempotent, acks=all. Consumer: batches with manual
 * offset resolution — an offset is resolved only after the handler resolved for that message (or the
 * batch handler for a slice of the fetched batch ending with it), and committed right after, so a crash
 * redelivers rather than loses. A consumer that exhausted its retries restarts (kafkajs restartOnFailure)
 * after the last retry's wait, at most `timing.retry.maxRetryTime`; stopping it leaves the group at once,
 * so a replacement does not wait for its session to time out.
 */
export function createKafkaEventBus(options: KafkaEventBusOptions): EventBus {
  const timing = options.timing ?? DEFAULT_KAFKA_TIMING;
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: [...options.brokers],
    logLevel: logLevel.WARN,
    retry: { ...timing.retry },
    ...options.security,
  });
  let producer: Producer | undefined;
  const consumers = new Set<Consumer>();
  const ensuredTopics = new Set<string>();
  const lag = createConsumerLagRecorder();

  const ensureTopic = async (topic: string) => {
    if (ensuredTopics.has(topic)) return;
    const admin = kafka.admin();
    await admin.connect();
    try {
      // Create only when absent: kafkajs logs an ERROR for TOPIC_ALREADY_EXISTS even though it is harmless.
      const existing = await admin.listTopics();
      if (!existing.includes(topic)) {
        await admin
          .createTopics({
            waitForLeaders: true,
            topics: [{ topic, numPartitions: options.numPartitions ?? 3, replicationFactor: -1 }],
          })
          .catch((error: unknown) => {
            // Another process created it between the listing and the creation.
            if ((error as { type?: string }).type !== "TOPIC_ALREADY_EXISTS") throw error;
          });
      }
    } finally {
      await admin.disconnect();
    }
    ensuredTopics.add(topic);
  };

  const getProducer = async () => {
    if (!producer) {
      const p = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
      await p.connect();
      producer = p;
    }
    return producer;
  };

  return {
    async publish(messages: readonly EventMessage[]) {
      if (messages.length === 0) return;
      const byTopic = new Map<string, EventMessage[]>();
      for (const m of messages) byTopic.set(m.topic, [...(byTopic.get(m.topic) ?? []), m]);
      for (const topic of byTopic.keys()) await ensureTopic(topic);
      const p = await getProducer();
      await p.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, ms]) => ({
          topic,
          messages: ms.map((m) => ({ key: m.key, value: Buffer.from(m.value), headers: { ...m.headers } })),
        })),
      });
    },

    async subscribe(opts: SubscribeOptions): Promise<Subscription> {
      await ensureTopic(opts.topic);
      const consumer = kafka.consumer({
        groupId: opts.groupId,
        sessionTimeout: timing.sessionTimeout,
        heartbeatInterval: timing.heartbeatInterval,
        // Every failure kafkajs deems retriable restarts the consumer; the messages stay on the topic.
        retry: { ...timing.retry, restartOnFailure: async () => true },
      });
      try {
        await consumer.connect();
        await consumer.subscribe({ topic: opts.topic, fromBeginning: opts.fromBeginning ?? true });
      } catch (error) {
        // The caller may try again: this attempt's connections must not stay open.
        await consumer.disconnect().catch(() => {});
        throw error;
      }
      consumers.add(consumer);
      await consumer.run({
        autoCommit: true,
        autoCommitInterval: 500,
        eachBatchAutoResolve: false,
        eachBatch: async ({
          batch,
          resolveOffset,
          heartbeat,
          commitOffsetsIfNecessary,
          isRunning,
          isStale,
        }) => {
          const size = opts.batchHandler ? (opts.maxBatch ?? DEFAULT_MAX_BATCH) : 1;
          for (let i = 0; i < batch.messages.length; i += size) {
            if (!isRunning() || isStale()) break;
            const taken = batch.messages.slice(i, i + size);
            const messages = taken.map((message) => toEventMessage(batch.topic, message));
            try {
              if (opts.batchHandler) await opts.batchHandler(messages);
              else await opts.handler(messages[0]!);
            } catch (error) {
              throw handlerFailure(batch.topic, error);
            }
            const last = taken.at(-1)!;
            resolveOffset(last.offset);
            lag.record(
              opts.groupId,
              batch.topic,
              batch.partition,
              Number(batch.highWatermark) - Number(last.offset) - 1,
            );
            await commitOffsetsIfNecessary();
            await heartbeat();
          }
        },
      });
      return {
        stop: async () => {
          consumers.delete(consumer);
          await consumer.disconnect();
        },
      };
    },

    async close() {
      await Promise.all([...consumers].map((c) => c.disconnect()));
      consumers.clear();
      await producer?.disconnect();
      producer = undefined;
    },
  };
}

/**
 * What kafkajs gets when a handler fails: a plain error with the handler's message (and the original as its
 * non-enumerable `cause`). kafkajs serialises the error it retries on; one carrying a circular object (a
 * protobuf descriptor, a database client) made that throw, and the consumer then crashed for good instead
 * of retrying and redelivering.
 */
function handlerFailure(topic: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`handler of ${topic} failed: ${message}`, { cause: error });
}

function toEventMessage(topic: string, message: KafkaMessage): EventMessage {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(message.headers ?? {})) {
    if (v !== undefined) headers[k] = Array.isArray(v) ? String(v[0]) : String(v);
  }
  return {
    topic,
    key: message.key?.toString() ?? "",
    value: message.value ? new Uint8Array(message.value) : new Uint8Array(),
    headers,
  };
}
