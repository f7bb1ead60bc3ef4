/**
 * A token bucket holding up to `capacity` requests that refills continuously at `refillPerMinute`: the
 * gateway's per-app previewQuotations limit (over it: RATE_LIMIT_EXCEEDED, 429 with Retry-After) and the
 * webhook dispatcher's caps on manual sends.
 *
 * Pure: the caller keeps one state per key (in memory or in a database row) and passes the clock in.
 */

export interface TokenBucketConfig {
  /** Burst size: requests allowed at once from a full bucket. At least 1. */
  readonly capacity: number;
  /** Tokens added per minute. Greater than 0. */
  readonly refillPerMinute: number;
}

export interface TokenBucketState {
  /** Tokens available at `updatedAtMs`; fractional between refills. */
  readonly tokens: number;
  readonly updatedAtMs: number;
}

export interface TakeResult {
  readonly allowed: boolean;
  /** 0 when allowed; otherwise whole seconds until one token is available (at least 1), for Retry-After. */
  readonly retryAfterSeconds: number;
  readonly state: TokenBucketState;
}

export interface TokenBucket {
  readonly config: TokenBucketConfig;
  /** Takes one token; `state` undefined means an app not seen before, whose bucket starts full. */
  take(state: TokenBucketState | undefined, nowMs: number): TakeResult;
}

export function createTokenBucket(config: TokenBucketConfig): TokenBucket {
  if (!Number.isFinite(config.capacity) || config.capacity < 1) {
    throw new RangeError(`token bucket capacity must be at least 1: ${config.capacity}`);
  }
  if (!Number.isFinite(config.refillPerMinute) || config.refillPerMinute <= 0) {
    throw new RangeError(`token bucket refill must be greater than 0: ${config.refillPerMinute}`);
  }
  const refillPerMs = config.refillPerMinute / 60_000;
  return {
    config,
    take(state, nowMs) {
      const refilled = refill(state, nowMs, config.capacity, refillPerMs);
      if (refilled.tokens >= 1) {
        return { allowed: true, retryAfterSeconds: 0, state: { ...refilled, tokens: refilled.tokens - 1 } };
      }
      const waitMs = (1 - refilled.tokens) / refillPerMs;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), state: refilled };
    },
  };
}

function refill(
  state: TokenBucketState | undefined,
  nowMs: number,
  capacity: number,
  refillPerMs: number,
): TokenBucketState {
  if (state === undefined) {
    return { tokens: capacity, updatedAtMs: nowMs };
  }
  // A clock that steps backwards must neither mint tokens nor move the bucket into the past.
  const elapsedMs = Math.max(0, nowMs - state.updatedAtMs);
  return {
    tokens: Math.min(capacity, state.tokens + elapsedMs * refillPerMs),
    updatedAtMs: Math.max(nowMs, state.updatedAtMs),
  };
}
