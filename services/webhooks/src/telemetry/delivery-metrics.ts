/**
 * The dispatcher's metrics: every attempt by outcome, finished deliveries by outcome with the attempts
 * they took, the end-to-end latency from the event (occurred_at, the ledger's clock) to the receiver's
 * 2xx, and receiver circuits opening and closing. Recorded after the attempt's row was committed.
 */
import {
  type Counter,
  DELIVERY_LATENCY_BUCKETS_S,
  type Histogram,
  payoutsMeter,
} from "@payouts/platform/telemetry/payouts-meter";
import type { CircuitTransition } from "../domain/circuit-breaker.js";

export interface AttemptFacts {
  readonly eventType: string;
  /** The delivery's state after the attempt. */
  readonly status: "delivered" | "pending" | "dead";
  /** Attempts made so far, this one included. */
  readonly attempts: number;
  readonly occurredAt: Date | null;
  readonly at: Date;
}

export interface DeliveryMetrics {
  attempted(facts: AttemptFacts): void;
  /** A receiver's circuit opened (it is cut off) or closed (it is served again). */
  circuitChanged(transition: CircuitTransition): void;
}

export function createDeliveryMetrics(): DeliveryMetrics {
  const meter = payoutsMeter();
  const attempts: Counter = meter.createCounter("payouts.webhooks.attempts", {
    description: "Webhook delivery attempts, by outcome (delivered, retry, dead)",
  });
  const finished: Counter = meter.createCounter("payouts.webhooks.deliveries", {
    description: "Webhook deliveries that reached a final state, by outcome (delivered, dead)",
  });
  const attemptsUsed: Histogram = meter.createHistogram("payouts.webhooks.delivery.attempts", {
    description: "Attempts a finished delivery took",
    advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10, 12] },
  });
  const latency: Histogram = meter.createHistogram("payouts.webhooks.delivery.latency.seconds", {
    description: "From the event's occurred_at to the receiver's 2xx",
    unit: "s",
    advice: { explicitBucketBoundaries: DELIVERY_LATENCY_BUCKETS_S },
  });
  // Labelled by transition only: one series per value, however many receivers there are.
  const circuits: Counter = meter.createCounter("payouts.webhooks.circuit.transitions", {
    description: "Receiver circuit breakers that opened (receiver cut off) or closed (served again)",
  });
  return {
    circuitChanged(transition) {
      circuits.add(1, { transition });
    },
    attempted(facts) {
      const outcome = facts.status === "pending" ? "retry" : facts.status;
      attempts.add(1, { event_type: facts.eventType, outcome });
      if (facts.status === "pending") return;
      finished.add(1, { event_type: facts.eventType, outcome });
      attemptsUsed.record(facts.attempts, { outcome });
      if (facts.status === "delivered" && facts.occurredAt) {
        const seconds = (facts.at.getTime() - new Date(facts.occurredAt).getTime()) / 1000;
        latency.record(Math.max(0, seconds), { event_type: facts.eventType });
      }
    },
  };
}
