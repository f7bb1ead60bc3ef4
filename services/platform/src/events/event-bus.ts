/**
 * Publish/subscribe as the services need it: keyed, ordered per key, at-least-once. Kafka backs it in
 * the distributed mode, an in-process bus in the embedded mode. The outbox table stays the source of
 * truth in both: the bus only carries what the relay publishes.
 */

export interface EventMessage {
  readonly topic: string;
  /** Partitioning key; messages with one key are delivered in order. */
  readonly key: string;
  readonly value: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
}

export type EventHandler = (message: EventMessage) => Promise<void>;

/** Several messages at once, in the order they were published per key. */
export type EventBatchHandler = (messages: readonly EventMessage[]) => Promise<void>;

interface SubscribeCommon {
  readonly topic: string;
  readonly groupId: string;
  readonly fromBeginning?: boolean;
}

/**
 * A subscriber takes messages one at a time (`handler`) or in batches (`batchHandler`: what the bus has
 * at hand — Kafka: up to `maxBatch` consecutive messages of one fetched partition; in-process: one
 * publish call's messages). Resolving acknowledges the message or the whole batch (the offsets are
 * committed); a throw redelivers it — all of the batch — later.
 */
export type SubscribeOptions = SubscribeCommon &
  (
    | { readonly handler: EventHandler; readonly batchHandler?: undefined }
    | { readonly batchHandler: EventBatchHandler; readonly maxBatch?: number; readonly handler?: undefined }
  );

/** Most messages a batch handler gets at once unless the subscriber says otherwise. */
export const DEFAULT_MAX_BATCH = 500;

export interface Subscription {
  stop(): Promise<void>;
}

export interface EventBus {
  /**
   * Resolves once the messages are durably taken — Kafka: acknowledged by all in-sync replicas;
   * in-process: every subscriber's handler completed — and rejects otherwise, so the outbox relay marks
   * rows published only after that.
   */
  publish(messages: readonly EventMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}

export const TRANSACTION_EVENTS_TOPIC = "payouts.transaction-events.v1";
