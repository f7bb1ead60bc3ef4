import { createHmac, randomBytes } from "node:crypto";
import type { Queryable } from "@payouts/platform/database/database";
import { findAppCredentials, MAX_ACTIVE_SECRETS_PER_APP } from "../store/partner-store.js";
import { createBoundedExpiringMap } from "./bounded-expiring-map.js";
import { createCheckGate } from "./check-gate.js";
import { createFailureThrottle } from "./failure-throttle.js";
import { type SecretHasher, scryptHasher } from "./secret-hash.js";
import { throttleAddressKey } from "./throttle-address.js";

export interface AuthenticatedApp {
  readonly clientId: string;
  readonly partnerId: string;
  readonly previewRateLimitPerMinute: number;
}

export type VerifyOutcome =
  | { readonly kind: "ok"; readonly app: AuthenticatedApp }
  | { readonly kind: "refused" }
  | { readonly kind: "throttled"; readonly retryAfterSeconds: number }
  /** Too many checks are already running or waiting in this process; nothing was checked. */
  | { readonly kind: "busy" };

export interface CredentialVerifierOptions {
  /** How long a verified secret is accepted without the database and scrypt (AUTH_CACHE_TTL_MS). */
  readonly cacheTtlMs?: number;
  /** How long a verified secret still passes the failed-login throttle (AUTH_KNOWN_GOOD_TTL_MS). */
  readonly knownGoodTtlMs?: number;
  /** How long a refused (client id, secret) pair is refused without scrypt (AUTH_NEGATIVE_CACHE_TTL_MS). */
  readonly negativeTtlMs?: number;
  /** Failed logins allowed per client address in a window (AUTH_FAILURES_PER_ADDRESS; 0 = off). */
  readonly failuresPerAddress?: number;
  /** The window of the failure limit (AUTH_FAILURE_WINDOW_MS). */
  readonly failureWindowMs?: number;
  /** Checks (scrypt work) running at once in this process (AUTH_MAX_CONCURRENT_CHECKS). */
  readonly maxConcurrentChecks?: number;
  /** Checks waiting for a slot before new ones are answered busy (AUTH_MAX_QUEUED_CHECKS). */
  readonly maxQueuedChecks?: number;
  readonly hasher?: SecretHasher;
  readonly now?: () => number;
}

/** Entries the throttle and the negative cache each hold at most; the oldest go first. */
export const AUTH_MEMORY_MAX_ENTRIES = 10_000;

/**
 * Checks client credentials against the stored scrypt hashes of an app's active secrets.
 *
 * - A successful check is remembered for `cacheTtlMs` as a keyed digest (HMAC-SHA-256 under a key drawn
 *   at start, never stored) of the secret, so scrypt runs once per secret and TTL, not per request.
 * - Failed logins are throttled per client address (IPv6: per /64) before any scrypt runs: past the limit
 *   that address gets `throttled` with the seconds to wait. There is deliberately no limit per client id.
 *   Secrets are 256 random bits, so counting guesses per client id protects nothing against brute force,
 *   while it let anyone who knows a client id (it travels in every request) lock the partner out from many
 *   addresses. What the throttle protects is CPU, and that is bounded per source: one address can make
 *   this gateway run at most `failuresPerAddress` failed checks per window, whatever client ids it names.
 *   A request is therefore only ever throttled for failures from its own address. A secret this gateway
 *   verified within `knownGoodTtlMs` passes even that (and is still checked against the database), so a
 *   partner sharing an address with an attacker is not held back once it has been seen here.
 * - Each check is counted as a failure when it starts and taken back when it succeeds, so attempts sent
 *   at once cannot overrun the limits; identical logins (same client id, secret and generation) sent at
 *   once share one check, so a partner's cold-start burst costs one scrypt and counts nothing.
 * - A refused (client id, secret) pair is refused again without scrypt for `negativeTtlMs`.
 * - A failed check always runs MAX_ACTIVE_SECRETS_PER_APP scrypt derivations, against dummy hashes where
 *   the app has fewer secrets, is revoked or does not exist, so time does not tell which ids exist.
 * - At most `maxConcurrentChecks` checks run scrypt at once and `maxQueuedChecks` wait (known-good secrets
 *   first), so a flood from many addresses cannot take libuv's whole thread pool; past that, `busy`.
 * - `forget` (revocation, secret changes) drops the app's entries and bumps its generation; a check that
 *   was under way meanwhile answers as of its database read but caches nothing, so a revoked app is never
 *   cached again. Other gateway replicas stop accepting a revoked secret within `cacheTtlMs`.
 */
const refusedKeyOf = (clientId: string, secretDigest: string) => `${clientId}\u0000${secretDigest}`;

export function createCredentialVerifier(db: Queryable, options: CredentialVerifierOptions = {}) {
  const ttl = options.cacheTtlMs ?? 30_000;
  const knownGoodTtl = Math.max(options.knownGoodTtlMs ?? 24 * 3_600_000, ttl);
  const negativeTtl = options.negativeTtlMs ?? 30_000;
  const windowMs = options.failureWindowMs ?? 60_000;
  const hasher = options.hasher ?? scryptHasher;
  const now = options.now ?? Date.now;
  const gate = createCheckGate({
    maxConcurrent: Math.max(1, options.maxConcurrentChecks ?? 2),
    maxQueued: options.maxQueuedChecks ?? 100,
  });
  const digestKey = randomBytes(32);
  const digest = (secret: string) => createHmac("sha256", digestKey).update(secret).digest("base64");

  const throttle = (limit: number) =>
    createFailureThrottle({ limit, windowMs, maxEntries: AUTH_MEMORY_MAX_ENTRIES, now });
  // Keyed by the source address only (see above): no request can be throttled by failures from elsewhere.
  const byAddress = throttle(options.failuresPerAddress ?? 20);
  /** refusedKeyOf(client id, digest) → the client's generation when the refusal was cached. */
  const refused = createBoundedExpiringMap<string, number>(AUTH_MEMORY_MAX_ENTRIES, now);
  /**
   * Verified secrets per client id: digest → when scrypt last confirmed it. Only successful checks add
   * entries, so this holds at most MAX_ACTIVE_SECRETS_PER_APP digests per existing app.
   */
  const verified = new Map<string, { app: AuthenticatedApp; digests: Map<string, number> }>();
  /** Bumped by `forget`; at most one entry per app ever forgotten, i.e. bounded by the apps table. */
  const generations = new Map<string, number>();
  const generationOf = (clientId: string) => generations.get(clientId) ?? 0;
  let dummyHash: Promise<string> | undefined;
  const dummy = () => {
    dummyHash ??= hasher.hash(randomBytes(32).toString("base64url"));
    return dummyHash;
  };

  /** Runs exactly MAX_ACTIVE_SECRETS_PER_APP derivations unless one of `hashes` matches first. */
  async function matchesAny(secret: string, hashes: readonly string[]): Promise<boolean> {
    const rounds = Math.max(hashes.length, MAX_ACTIVE_SECRETS_PER_APP);
    let matched = false;
    for (let i = 0; i < rounds && !matched; i++) {
      const hash = hashes[i];
      const ok = await hasher.verify(secret, hash ?? (await dummy()));
      matched = ok && hash !== undefined;
    }
    return matched;
  }

  function remember(clientId: string, app: AuthenticatedApp, secretDigest: string, at: number): void {
    const digests = verified.get(clientId)?.digests ?? new Map<string, number>();
    digests.set(secretDigest, at);
    for (const [d, verifiedAt] of digests) if (verifiedAt + knownGoodTtl <= at) digests.delete(d);
    verified.set(clientId, { app, digests });
  }

  type CheckResult = Exclude<VerifyOutcome, { kind: "throttled" }>;

  /**
   * Reads the app and runs scrypt; caches the result unless `forget` ran since `generation` was read (before
   * the database read, so a revocation committed after it is always seen by the next check).
   */
  async function check(
    clientId: string,
    secret: string,
    secretDigest: string,
    generation: number,
    knownGood: boolean,
  ) {
    const row = await findAppCredentials(db, clientId);
    const hashes = row && row.revoked_at === null ? row.secret_hashes : [];
    const checked = await gate.run(() => matchesAny(secret, hashes), knownGood);
    if (checked.busy) return { kind: "busy" } satisfies CheckResult;
    const current = generationOf(clientId) === generation;
    if (!checked.value || !row) {
      if (current) refused.set(refusedKeyOf(clientId, secretDigest), generation, now() + negativeTtl);
      // A secret revoked on another replica is no longer known good here either.
      verified.get(clientId)?.digests.delete(secretDigest);
      return { kind: "refused" } satisfies CheckResult;
    }
    const app: AuthenticatedApp = {
      clientId: row.client_id,
      partnerId: row.partner_id,
      previewRateLimitPerMinute: row.preview_rate_limit_per_minute,
    };
    if (current) remember(clientId, app, secretDigest, now());
    return { kind: "ok", app } satisfies CheckResult;
  }

  /** Checks under way per (client id, digest, generation): concurrent identical logins share one. */
  const inflight = new Map<string, Promise<CheckResult>>();

  return {
    async verify(clientId: string, secret: string, address: string): Promise<VerifyOutcome> {
      const secretDigest = digest(secret);
      const addressKey = throttleAddressKey(address);
      const verifiedAt = verified.get(clientId)?.digests.get(secretDigest);
      if (verifiedAt !== undefined && verifiedAt + ttl > now())
        return { kind: "ok", app: verified.get(clientId)!.app };
      const knownGood = verifiedAt !== undefined && verifiedAt + knownGoodTtl > now();
      const generation = generationOf(clientId);
      const failed = () => byAddress.recordFailure(addressKey);
      if (!knownGood) {
        const wait = byAddress.retryAfterSeconds(addressKey);
        if (wait > 0) return { kind: "throttled", retryAfterSeconds: wait };
        if (refused.get(refusedKeyOf(clientId, secretDigest)) === generation) {
          failed();
          return { kind: "refused" };
        }
      }
      const flightKey = `${refusedKeyOf(clientId, secretDigest)}\u0000${generation}`;
      const joined = inflight.get(flightKey);
      if (joined) {
        const result = await joined;
        if (result.kind === "refused") failed();
        return result;
      }
      // Counted up front, so that attempts sent at once cannot overrun the limits; taken back on success.
      failed();
      const flight = check(clientId, secret, secretDigest, generation, knownGood);
      inflight.set(flightKey, flight);
      let result: CheckResult | undefined;
      try {
        result = await flight;
        return result;
      } finally {
        inflight.delete(flightKey);
        if (result?.kind !== "refused") byAddress.forgive(addressKey);
      }
    },
    /** Drops what this gateway remembers of the app: call after revoking it or changing its secrets. */
    forget(clientId: string): void {
      generations.set(clientId, generationOf(clientId) + 1);
      verified.delete(clientId);
    },
  };
}

export type CredentialVerifier = ReturnType<typeof createCredentialVerifier>;
