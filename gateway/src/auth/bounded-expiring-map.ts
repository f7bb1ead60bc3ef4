/**
 * A map for in-memory security state (failure counters, remembered refusals) that an attacker can make
 * grow: entries expire, and past `maxEntries` the least recently written ones are dropped first, so its
 * memory stays bounded whatever the traffic. Expired entries are dropped when read or pushed out.
 */
export interface BoundedExpiringMap<K, V> {
  get(key: K): V | undefined;
  /** Writes (or rewrites) the entry, which then counts as the most recent. */
  set(key: K, value: V, expiresAt: number): void;
  delete(key: K): void;
  readonly size: number;
}

export function createBoundedExpiringMap<K, V>(
  maxEntries: number,
  now: () => number,
): BoundedExpiringMap<K, V> {
  const entries = new Map<K, { value: V; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value, expiresAt) {
      entries.delete(key);
      entries.set(key, { value, expiresAt });
      // A Map iterates in insertion order, so its first key is the least recently written.
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as K);
    },
    delete(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
