import { percentile } from "./percentile.js";

/** One delivery: when its event was published (ms, any clock) and how long it took to be answered 2xx. */
export interface TimedDelivery {
  readonly publishedAt: number;
  readonly latencyMs: number;
}

/** The deliveries of events published within one window of the phase. */
export interface LatencyWindow {
  /** Seconds from the phase's first publish to the window's start. */
  readonly fromSecond: number;
  readonly deliveries: number;
  readonly p50: number;
  readonly p99: number;
}

/**
 * Latency percentiles per consecutive window of `windowSeconds`, by publish time, from the earliest
 * publish. A window in which nothing was published is left out; a last window shorter than half a
 * window is merged into the one before it, so "the last minute" is never a handful of stragglers.
 */
export function latencyPerWindow(
  deliveries: readonly TimedDelivery[],
  windowSeconds: number,
): LatencyWindow[] {
  if (!(windowSeconds > 0)) throw new RangeError(`windowSeconds must be positive, got ${windowSeconds}`);
  if (deliveries.length === 0) return [];
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const d of deliveries) {
    first = Math.min(first, d.publishedAt);
    last = Math.max(last, d.publishedAt);
  }
  const windowMs = windowSeconds * 1000;
  const span = last - first;
  let count = Math.floor(span / windowMs) + 1;
  if (count > 1 && span - (count - 1) * windowMs < windowMs / 2) count--;
  const buckets: number[][] = Array.from({ length: count }, () => []);
  for (const d of deliveries) {
    const index = Math.min(count - 1, Math.floor((d.publishedAt - first) / windowMs));
    buckets[index]!.push(d.latencyMs);
  }
  return buckets.flatMap((latencies, i) =>
    latencies.length === 0
      ? []
      : [
          {
            fromSecond: i * windowSeconds,
            deliveries: latencies.length,
            p50: percentile(latencies, 50),
            p99: percentile(latencies, 99),
          },
        ],
  );
}
