import { type Meter, metrics } from "@opentelemetry/api";

/** Instrument types, so services describe their metrics without depending on the API package. */
export type {
  BatchObservableResult,
  Counter,
  Histogram,
  Meter,
  ObservableGauge,
} from "@opentelemetry/api";

/**
 * The meter of this platform's own instruments. Call it when building a component, not at module load:
 * the API hands out no-op meters until a provider is registered, and the embedded mode registers one only
 * when it starts.
 */
export function payoutsMeter(): Meter {
  return metrics.getMeter("payouts");
}

/** Request and RPC latencies, in seconds: 5 ms to 30 s. */
export const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Event-to-receiver latencies, in seconds: 100 ms to 2 days (the retry schedule reaches 48 h). */
export const DELIVERY_LATENCY_BUCKETS_S = [
  0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 21600, 86400, 172800,
];
