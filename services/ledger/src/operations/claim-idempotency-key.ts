/**
 * The idempotency-key rules shared by every idempotent ledger call (executePayout, creditBalance), in
 * their documented precedence: another request holding the key → IDEMPOTENCY_KEY_IN_USE; a stored record
 * with another fingerprint → IDEMPOTENCY_KEY_REUSED; a stored record with the same fingerprint → replay.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { keyInUse, keyReused, keyVerdict } from "../domain/payout-execution.js";
import { findKey, type KeyScope, type StoredKey, tryLockKey } from "../store/idempotency-store.js";

/**
 * Takes the key for the caller's database transaction. Returns the stored record to replay, or undefined
 * when the request is new (the caller then executes it and stores its outcome before committing).
 */
export async function claimIdempotencyKey(
  q: Queryable,
  scope: KeyScope,
  fingerprint: string,
  now: Date,
): Promise<StoredKey | undefined> {
  if ((await tryLockKey(q, scope)) !== "locked") throw keyInUse();
  const stored = await findKey(q, scope, now);
  if (keyVerdict(stored, fingerprint) === "reused") throw keyReused();
  return stored;
}
