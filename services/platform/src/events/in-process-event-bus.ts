import type { EventBus, EventHandler, EventMessage, SubscribeOptions, Subscription } from "./event-bus.js";

/**
 * The embedded mode's bus: one queue per (topic, group), drained in publish order; a failing handler
 * is retried after a pause, so a message is never skipped (same at-least-once contract as Kafka).
 */
export function createInProcessEventBus(options: { retryDelayMs?: number } = {}): EventBus {
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const groups = new Map<string, Group>();

  interface Group {
    topic: string;
    handler: EventHandler;
    queue: EventMessage[];
    draining: boolean;
    stopped: boolean;
  }

  const drain = async (group: Group): Promise<void> => {
    if (group.draining) return;
    group.draining = true;
    try {
      while (!group.stopped && group.queue.length > 0) {
        const next = group.queue[0]!;
        try {
          await group.handler(next);
          group.queue.shift();
        } catch {
          await new Promise((r) => setTimeout(r, retryDelayMs));
        }
      }
    } finally {
      group.draining = false;
    }
  };

  return {
    async publish(messages) {
      for (const message of messages) {
        for (const group of groups.values()) {
          if (group.topic === message.topic && !group.stopped) group.queue.push(message);
        }
      }
      for (const group of groups.values()) void drain(group);
    },
    async subscribe(opts: SubscribeOptions): Promise<Subscription> {
      const id = `${opts.topic}\u0000${opts.groupId}`;
      if (groups.has(id)) throw new Error(`group ${opts.groupId} already subscribed to ${opts.topic}`);
      const group: Group = {
        topic: opts.topic,
        handler: opts.handler,
        queue: [],
        draining: false,
        stopped: false,
      };
      groups.set(id, group);
      return {
        stop: async () => {
          group.stopped = true;
          groups.delete(id);
        },
      };
    },
    async close() {
      for (const group of groups.values()) group.stopped = true;
      groups.clear();
    },
  };
}
