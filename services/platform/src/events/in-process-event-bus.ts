import type { EventBus, EventMessage, SubscribeOptions, Subscription } from "./event-bus.js";

/**
 * The embedded mode's bus. It keeps nothing in memory: `publish` hands each message to every subscribed
 * group's handler, in publish order (a batch handler gets the call's messages at once), and resolves only when all of them have completed. A handler that
 * throws makes `publish` reject (after the messages before it were taken), and a topic with no subscriber
 * at all is refused, so the publisher — the outbox relay — keeps its rows unpublished and tries again: an
 * event is never lost to a crash, a shutdown or a subscriber that is not there yet. Redelivery after a
 * partial failure is the same at-least-once contract as Kafka (consumers deduplicate by event id).
 */
export function createInProcessEventBus(): EventBus {
  const groups = new Map<string, Group>();

  interface Group {
    readonly topic: string;
    /** The subscriber's handler, or its batch handler given one publish call's messages at once. */
    readonly take: (messages: readonly EventMessage[]) => Promise<void>;
    /** The group's deliveries run one at a time, so one key's messages stay in order. */
    tail: Promise<void>;
    stopped: boolean;
  }

  const deliver = (group: Group, messages: readonly EventMessage[]): Promise<void> => {
    const run = group.tail.then(async () => {
      if (group.stopped) throw new Error(`subscriber of ${group.topic} stopped`);
      await group.take(messages);
    });
    group.tail = run.catch(() => {});
    return run;
  };

  return {
    async publish(messages) {
      const topics = new Set(messages.map((m) => m.topic));
      for (const topic of topics) {
        const subscribers = [...groups.values()].filter((g) => g.topic === topic && !g.stopped);
        if (subscribers.length === 0)
          throw new Error(`no subscriber for ${topic} yet; nothing was published`);
        const ofTopic = messages.filter((m) => m.topic === topic);
        for (const group of subscribers) await deliver(group, ofTopic);
      }
    },
    async subscribe(opts: SubscribeOptions): Promise<Subscription> {
      const id = `${opts.topic}\u0000${opts.groupId}`;
      if (groups.has(id)) throw new Error(`group ${opts.groupId} already subscribed to ${opts.topic}`);
      const { handler, batchHandler } = opts;
      const group: Group = {
        topic: opts.topic,
        take: batchHandler
          ? (messages) => batchHandler(messages)
          : async (messages) => {
              for (const message of messages) {
                if (group.stopped) throw new Error(`subscriber of ${opts.topic} stopped`);
                await handler(message);
              }
            },
        tail: Promise.resolve(),
        stopped: false,
      };
      groups.set(id, group);
      return {
        // Waits for the message in hand: a stopped consumer never writes after its owner closed the database.
        stop: async () => {
          group.stopped = true;
          groups.delete(id);
          await group.tail;
        },
      };
    },
    async close() {
      const all = [...groups.values()];
      for (const group of all) group.stopped = true;
      groups.clear();
      await Promise.all(all.map((g) => g.tail));
    },
  };
}
