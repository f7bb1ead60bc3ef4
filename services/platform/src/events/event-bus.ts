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

export interface SubscribeOptions {
  readonly topic: string;
  readonly groupId: string;
  /** Resolving acknowledges the message (the offset is committed); a throw redelivers it later. */
  readonly handler: EventHandler;
  readonly fromBeginning?: boolean;
}

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
