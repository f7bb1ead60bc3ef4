/**
 * Receiver health gauges, from a query run every `intervalMs` (not at each scrape): a scrape reads the last
 * summary, so scrapes from several Prometheus servers cost the database nothing more. Every dispatcher
 * replica reports the same figures; rules take max(). A failed refresh reports nothing until the next one
 * succeeds rather than stale or zero figures.
 *
 * Per-receiver series (config_id, partner_id) exist only for the `topN` receivers with the largest backlog
 * and the `topN` with the oldest pending row: bounded whatever the number of receivers, and a receiver that
 * matters is always among them. Per-partner series were not chosen: partners are not bounded either, and the
 * admin API's receiver list answers for any one receiver or partner.
 */
import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import {
  type BatchObservableResult,
  type Meter,
  payoutsMeter,
} from "@payouts/platform/telemetry/payouts-meter";
import { type BacklogSummary, summarizeBacklogs } from "../domain/receiver-backlog.js";
import { receiverBacklogs } from "../store/receiver-health-store.js";

export interface ReceiverHealthGaugeOptions {
  readonly db: Database;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly intervalMs: number;
  readonly topN: number;
  /** The platform's meter unless a test gives its own. */
  readonly meter?: Meter;
}

export interface ReceiverHealthGauges {
  /** Runs one refresh now and then every interval. */
  start(): void;
  /** One refresh; resolves once the summary is replaced (or dropped after a failure). */
  refresh(): Promise<void>;
  stop(): void;
}

export function createReceiverHealthGauges(options: ReceiverHealthGaugeOptions): ReceiverHealthGauges {
  const meter = options.meter ?? payoutsMeter();
  const backlog = meter.createObservableGauge("payouts.webhooks.backlog", {
    description:
      "Pending webhook deliveries, by receiver_status (active: being delivered; paused, disabled: waiting on purpose)",
  });
  const oldest = meter.createObservableGauge("payouts.webhooks.backlog.oldest.age.seconds", {
    description: "Age of the oldest pending webhook delivery, by receiver_status (0 when none)",
    unit: "s",
  });
  const receiverBacklog = meter.createObservableGauge("payouts.webhooks.receiver.backlog", {
    description: "Pending deliveries of the receivers with the largest backlog (top N only)",
  });
  const receiverOldest = meter.createObservableGauge("payouts.webhooks.receiver.oldest.age.seconds", {
    description: "Age of the oldest pending delivery of the receivers where it is oldest (top N only)",
    unit: "s",
  });
  const circuits = meter.createObservableGauge("payouts.webhooks.circuits", {
    description: "Receivers whose circuit breaker is not closed, by state (open, half_open)",
  });
  const paused = meter.createObservableGauge("payouts.webhooks.receivers.paused", {
    description: "Receivers paused by an operator",
  });
  const instruments = [backlog, oldest, receiverBacklog, receiverOldest, circuits, paused];

  let summary: BacklogSummary | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const refresh = (): Promise<void> => {
    running ??= (async () => {
      try {
        summary = summarizeBacklogs(await receiverBacklogs(options.db), options.now(), options.topN);
      } catch (error) {
        summary = undefined;
        options.logger.warn({ err: error }, "receiver health gauges not refreshed");
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const observe = (observer: BatchObservableResult) => {
    const s = summary;
    if (s === undefined) return;
    for (const status of ["active", "paused", "disabled"] as const) {
      observer.observe(backlog, s.pending[status], { receiver_status: status });
      observer.observe(oldest, s.oldestAgeSeconds[status], { receiver_status: status });
    }
    for (const r of s.topBacklog) {
      observer.observe(receiverBacklog, r.value, { config_id: r.configId, partner_id: r.partnerId });
    }
    for (const r of s.topOldestAge) {
      observer.observe(receiverOldest, r.value, { config_id: r.configId, partner_id: r.partnerId });
    }
    observer.observe(circuits, s.circuits.open, { state: "open" });
    observer.observe(circuits, s.circuits.half_open, { state: "half_open" });
    observer.observe(paused, s.paused);
  };

  return {
    start() {
      if (timer) return;
      meter.addBatchObservableCallback(observe, instruments);
      void refresh();
      timer = setInterval(() => void refresh(), options.intervalMs);
      timer.unref();
    },
    refresh,
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      meter.removeBatchObservableCallback(observe, instruments);
    },
  };
}
