import {
  createTokenBucket,
  type TokenBucket,
  type TokenBucketState,
} from "@payouts/platform/rate-limit/token-bucket";

/**
 * The per-app limit of `previewQuotations` (over it: RATE_LIMIT_EXCEEDED, 429 with Retry-After): one token
 * bucket per client id, holding `limitPerMinute` requests and refilling at that rate, so an app may burst
 * its whole minute at once and then continues at the steady rate.
 *
 * Per process: the buckets live in this gateway's memory. With N gateway replicas behind a load balancer,
 * each replica keeps its own bucket per app, so an app can make up to N × its limit per minute (about the
 * limit when the balancer spreads evenly and the app is served by one replica at a time). Operators who need
 * one exact global limit set each app's `preview_rate_limit_per_minute` to the limit divided by the
 * replica count, or move the bucket state into a shared store. A restart refills every bucket.
 *
 * A limit below 1 means "not limited" (PREVIEW_RATE_LIMIT_PER_MINUTE=0 switches the default limit off).
 */
export interface PreviewRateLimiter {
  /** Takes one request from the app's bucket; retryAfterSeconds is 0 when allowed. */
  take(clientId: string, limitPerMinute: number): { allowed: boolean; retryAfterSeconds: number };
}

/** Idle buckets refill completely within a minute, so they can be dropped once the map grows this large. */
const PRUNE_ABOVE = 10_000;
const FULL_AFTER_MS = 60_000;

export function createPreviewRateLimiter(now: () => number = Date.now): PreviewRateLimiter {
  const buckets = new Map<string, { bucket: TokenBucket; state: TokenBucketState }>();
  return {
    take(clientId, limitPerMinute) {
      if (!(limitPerMinute >= 1)) return { allowed: true, retryAfterSeconds: 0 };
      const nowMs = now();
      const seen = buckets.get(clientId);
      // An app whose limit changed (a new credential cache entry) gets a bucket of the new size.
      const bucket =
        seen?.bucket.config.capacity === limitPerMinute
          ? seen.bucket
          : createTokenBucket({ capacity: limitPerMinute, refillPerMinute: limitPerMinute });
      const result = bucket.take(seen?.state, nowMs);
      buckets.set(clientId, { bucket, state: result.state });
      if (buckets.size > PRUNE_ABOVE) pruneFull(buckets, nowMs);
      return { allowed: result.allowed, retryAfterSeconds: result.retryAfterSeconds };
    },
  };
}

function pruneFull(buckets: Map<string, { state: TokenBucketState }>, nowMs: number): void {
  for (const [clientId, { state }] of buckets) {
    if (nowMs - state.updatedAtMs >= FULL_AFTER_MS) buckets.delete(clientId);
  }
}
