import type { Queryable } from "@payouts/platform/database/database";
import type { Dec } from "@payouts/platform/money/decimal";
import type { Corridor } from "../domain/corridor.js";
import type { PartnerPricing } from "../domain/partner-pricing.js";
import { listCorridors } from "./corridor-store.js";
import { listFxRates } from "./fx-rate-store.js";
import { findPartnerPricing } from "./partner-pricing-store.js";

/**
 * What previews read on every call, kept for `ttlMs` (the partner API allows previews to be cached briefly). Only the
 * reference data is cached, never a response: `expires_at` is computed per response.
 *
 * Writes through this process forget the entry at once. Another replica of the pricing service keeps
 * its copy for at most `ttlMs`, so an operator's change reaches every preview within that time. Binding
 * quotes do not use this cache; they read the database.
 */
export interface ReferenceDataCache {
  fxRates(): Promise<ReadonlyMap<string, Dec>>;
  corridors(): Promise<readonly Corridor[]>;
  partnerPricing(partnerId: string): Promise<PartnerPricing>;
  forgetFxRates(): void;
  forgetCorridors(): void;
  forgetPartner(partnerId: string): void;
}

/** Partners remembered at once; beyond this the oldest entry is dropped. */
const MAX_CACHED_PARTNERS = 10_000;

export function createReferenceDataCache(
  db: Queryable,
  options: { ttlMs: number; now?: () => number },
): ReferenceDataCache {
  const now = options.now ?? Date.now;
  const fresh = <T>() => createEntries<T>(options.ttlMs, now);
  const rates = fresh<ReadonlyMap<string, Dec>>();
  const corridors = fresh<readonly Corridor[]>();
  const partners = fresh<PartnerPricing>();
  const loadRates = async () => new Map((await listFxRates(db)).map((r) => [r.currency, r.ratePerUsd]));
  return {
    fxRates: () => rates.get("", loadRates),
    corridors: () => corridors.get("", () => listCorridors(db)),
    partnerPricing: (partnerId) => partners.get(partnerId, () => findPartnerPricing(db, partnerId)),
    forgetFxRates: () => rates.forget(""),
    forgetCorridors: () => corridors.forget(""),
    forgetPartner: (partnerId) => partners.forget(partnerId),
  };
}

interface Entries<T> {
  get(key: string, load: () => Promise<T>): Promise<T>;
  forget(key: string): void;
}

function createEntries<T>(ttlMs: number, now: () => number): Entries<T> {
  const entries = new Map<string, { value: T; expiresAt: number }>();
  // A load that started before a write must not store what it read once the write has forgotten the key.
  const generations = new Map<string, number>();
  return {
    async get(key, load) {
      const hit = entries.get(key);
      if (hit !== undefined && hit.expiresAt > now()) {
        return hit.value;
      }
      const generation = generations.get(key) ?? 0;
      const value = await load();
      if (ttlMs > 0 && (generations.get(key) ?? 0) === generation) {
        entries.delete(key);
        entries.set(key, { value, expiresAt: now() + ttlMs });
        evictOldest(entries);
      }
      return value;
    },
    forget(key) {
      entries.delete(key);
      generations.set(key, (generations.get(key) ?? 0) + 1);
      evictOldest(generations);
    },
  };
}

function evictOldest(map: Map<string, unknown>): void {
  if (map.size > MAX_CACHED_PARTNERS) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}
