import type { PayoutsError } from "./errors.js";

/** How executePayout retries; `false` turns retries off (one attempt). */
export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  readonly maxAttempts?: number;
  /** The backoff before the second attempt, doubled each time (default 200 ms). */
  readonly baseDelayMs?: number;
  /** The cap of the backoff (default 5 s). */
  readonly maxDelayMs?: number;
  /**
   * The longest `Retry-After` the client waits for (default 30 s). An answer asking for longer ends the
   * retries with its error: the call never retries sooner than the platform asked.
   */
  readonly maxRetryAfterMs?: number;
}

export type RetrySetting = RetryOptions | false;

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 30_000,
};

export function retryPolicy(setting: RetrySetting | undefined): RetryPolicy {
  if (setting === false) return { ...DEFAULT_RETRY, maxAttempts: 1 };
  const policy = { ...DEFAULT_RETRY, ...setting };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`retry.${name} must be a number ≥ 0`);
  }
  if (policy.maxAttempts < 1 || !Number.isInteger(policy.maxAttempts)) {
    throw new RangeError("retry.maxAttempts must be an integer ≥ 1");
  }
  return policy;
}

/**
 * Whether a failed executePayout may be sent again with the same idempotency key: no answer at all (the
 * payout may have been made: the key replays it), a 5xx (nothing was done, or the key replays it), or 409
 * IDEMPOTENCY_KEY_IN_USE (the first request with this key is still running). Any other 4xx is final.
 */
export function isRetryable(error: PayoutsError<string>): boolean {
  if (error.code === "NETWORK_ERROR") return true;
  if (error.status >= 500) return true;
  return error.status === 409 && error.code === "IDEMPOTENCY_KEY_IN_USE";
}

/**
 * The wait before attempt `attempt + 1` after `error`, or undefined to stop: capped exponential backoff
 * with equal jitter (half fixed, half random), and never less than the answer's `Retry-After`.
 * `random` is in [0, 1).
 */
export function retryDelay(
  error: PayoutsError<string>,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.maxAttempts || !isRetryable(error)) return undefined;
  if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const backoff = ceiling / 2 + random() * (ceiling / 2);
  return Math.round(Math.max(backoff, error.retryAfterMs ?? 0));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
