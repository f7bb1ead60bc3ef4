/**
 * Kafka consumer lag as the consumer itself sees it: after each handled message, the partition's high
 * watermark minus the next offset to read. A gauge per (group, topic, partition); a partition this
 * process no longer consumes keeps its last value until the process restarts, so dashboards take max()
 * over the group's live processes.
 */
import type { ObservableGauge } from "@opentelemetry/api";
import { payoutsMeter } from "./payouts-meter.js";

export interface ConsumerLagRecorder {
  record(groupId: string, topic: string, partition: number, lag: number): void;
}

export function createConsumerLagRecorder(): ConsumerLagRecorder {
  const latest = new Map<string, { attributes: Record<string, string | number>; lag: number }>();
  const gauge: ObservableGauge = payoutsMeter().createObservableGauge("payouts.kafka.consumer.lag", {
    description: "Messages of a partition not yet processed by this consumer group (as of its last message)",
    unit: "{message}",
  });
  gauge.addCallback((result) => {
    for (const { attributes, lag } of latest.values()) result.observe(lag, attributes);
  });
  return {
    record(groupId, topic, partition, lag) {
      latest.set(`${groupId}\u0000${topic}\u0000${partition}`, {
        attributes: {
          "messaging.consumer.group.name": groupId,
          "messaging.destination.name": topic,
          "messaging.destination.partition.id": String(partition),
        },
        lag: Math.max(0, lag),
      });
    },
  };
}
