import { createBoundedExpiringMap } from "./bounded-expiring-map.js";

/**
 * Counts failed logins per key (a client address or a client id) in a fixed window that opens at the
 * key's first failure. Once `limit` failures are in the window, the key is refused until the window
 * closes, and `retryAfterSeconds` says how long that is. Refused attempts are not counted, so they do
 * not prolong the block. A limit below 1 switches the throttle off. At most `maxEntries` keys are held.
 */
export interface FailureThrottle {
  /** 0 when the key may try; otherwise the whole seconds until its window closes (at least 1). */
  retryAfterSeconds(key: string): number;
  recordFailure(key: string): void;
  /** Takes back one failure of the key's current window (an attempt counted up front that succeeded). */
  forgive(key: string): void;
}

export function createFailureThrottle(options: {
  limit: number;
  windowMs: number;
  maxEntries: number;
  now: () => number;
}): FailureThrottle {
  const { limit, windowMs, now } = options;
  const windows = createBoundedExpiringMap<string, { failures: number; closesAt: number }>(
    options.maxEntries,
    now,
  );
  const enabled = limit >= 1 && windowMs > 0;
  return {
    retryAfterSeconds(key) {
      if (!enabled) return 0;
      const window = windows.get(key);
      if (!window || window.failures < limit) return 0;
      return Math.max(1, Math.ceil((window.closesAt - now()) / 1000));
    },
    recordFailure(key) {
      if (!enabled) return;
      const window = windows.get(key) ?? { failures: 0, closesAt: now() + windowMs };
      windows.set(key, { failures: window.failures + 1, closesAt: window.closesAt }, window.closesAt);
    },
    forgive(key) {
      const window = windows.get(key);
      if (!window || window.failures === 0) return;
      windows.set(key, { failures: window.failures - 1, closesAt: window.closesAt }, window.closesAt);
    },
  };
}
