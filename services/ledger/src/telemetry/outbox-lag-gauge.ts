/**
 * Outbox lag, computed from the ledger's own table at each scrape: how old the oldest unpublished event is
 * (0 when none) and how many are waiting. Every ledger replica reports the same figures; dashboards take
 * max(). A failed query reports nothing rather than a misleading zero.
 */
import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import { type BatchObservableResult, payoutsMeter } from "@payouts/platform/telemetry/payouts-meter";
import { outboxBacklog } from "../store/outbox-store.js";

export interface OutboxLagGauge {
  stop(): void;
}

export function startOutboxLagGauge(db: Database, logger: Logger): OutboxLagGauge {
  const meter = payoutsMeter();
  const age = meter.createObservableGauge("payouts.ledger.outbox.lag.seconds", {
    description: "Age of the oldest outbox event not yet published to Kafka (0 when none)",
    unit: "s",
  });
  const waiting = meter.createObservableGauge("payouts.ledger.outbox.unpublished", {
    description: "Outbox events not yet published to Kafka",
  });
  const observe = async (observer: BatchObservableResult) => {
    try {
      const backlog = await outboxBacklog(db);
      observer.observe(age, backlog.oldestAgeSeconds);
      observer.observe(waiting, backlog.unpublished);
    } catch (error) {
      logger.warn({ err: error }, "outbox lag not measured");
    }
  };
  meter.addBatchObservableCallback(observe, [age, waiting]);
  return { stop: () => meter.removeBatchObservableCallback(observe, [age, waiting]) };
}
