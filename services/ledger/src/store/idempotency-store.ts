/**
 * SQL of ledger.idempotency_keys. A key being executed is represented by a transaction-scoped advisory
 * lock rather than an "in progress" row: the lock vanishes with its transaction, so a crash never leaves
 * a key stuck and no recovery job is needed.
 */
import type { Queryable } from "@payouts/platform/database/database";

export interface KeyScope {
  readonly partnerId: string;
  readonly route: string;
  readonly key: string;
}

export type StoredOutcome =
  | { readonly state: "succeeded"; readonly response: Uint8Array }
  | {
      readonly state: "failed";
      readonly reason: string;
      readonly message: string;
      readonly field: string;
    };

/** What the key did: executed one transaction, or posted one credit movement. */
export type KeySubject = { readonly txId: string } | { readonly movementId: string };

export interface StoredKey {
  readonly fingerprint: string;
  readonly subject: KeySubject;
  readonly requestId: string;
  readonly outcome: StoredOutcome;
}

/** True when this transaction now owns the key; false when another transaction is executing it. */
export async function tryLockKey(q: Queryable, scope: KeyScope): Promise<boolean> {
  const res = await q.query<{ locked: boolean }>(
    "SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked",
    [JSON.stringify(["ledger.idempotency", scope.partnerId, scope.route, scope.key])],
  );
  return res.rows[0]?.locked === true;
}

/** The live record of a key; an expired one is deleted first, so the key starts afresh. */
export async function findKey(q: Queryable, scope: KeyScope, now: Date): Promise<StoredKey | undefined> {
  await q.query(
    `DELETE FROM ledger.idempotency_keys
      WHERE partner_id = $1 AND route = $2 AND idempotency_key = $3 AND expires_at <= $4`,
    [scope.partnerId, scope.route, scope.key, now],
  );
  const res = await q.query<{
    fingerprint: string;
    tx_id: string | null;
    movement_id: string | null;
    request_id: string;
    state: string;
    response: Uint8Array | null;
    error_reason: string | null;
    error_message: string | null;
    error_field: string | null;
  }>(
    `SELECT fingerprint, tx_id, movement_id, request_id, state, response, error_reason, error_message, error_field
       FROM ledger.idempotency_keys WHERE partner_id = $1 AND route = $2 AND idempotency_key = $3`,
    [scope.partnerId, scope.route, scope.key],
  );
  const r = res.rows[0];
  if (!r) return undefined;
  const outcome: StoredOutcome =
    r.state === "succeeded"
      ? { state: "succeeded", response: new Uint8Array(r.response ?? new Uint8Array()) }
      : {
          state: "failed",
          reason: r.error_reason ?? "INTERNAL",
          message: r.error_message ?? "",
          field: r.error_field ?? "",
        };
  const subject: KeySubject = r.tx_id !== null ? { txId: r.tx_id } : { movementId: r.movement_id ?? "" };
  return { fingerprint: r.fingerprint, subject, requestId: r.request_id, outcome };
}

export async function storeKey(
  q: Queryable,
  scope: KeyScope,
  record: StoredKey,
  createdAt: Date,
  expiresAt: Date,
): Promise<void> {
  const o = record.outcome;
  await q.query(
    `INSERT INTO ledger.idempotency_keys (partner_id, route, idempotency_key, fingerprint, state, tx_id,
       response, error_reason, error_message, error_field, request_id, created_at, expires_at, movement_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      scope.partnerId,
      scope.route,
      scope.key,
      record.fingerprint,
      o.state,
      "txId" in record.subject ? record.subject.txId : null,
      o.state === "succeeded" ? Buffer.from(o.response) : null,
      o.state === "failed" ? o.reason : null,
      o.state === "failed" ? o.message : null,
      o.state === "failed" ? o.field : null,
      record.requestId,
      createdAt,
      expiresAt,
      "movementId" in record.subject ? record.subject.movementId : null,
    ],
  );
}

export async function deleteExpiredKeys(q: Queryable, now: Date, limit: number): Promise<number> {
  const res = await q.query(
    `DELETE FROM ledger.idempotency_keys WHERE ctid IN (
       SELECT ctid FROM ledger.idempotency_keys WHERE expires_at <= $1 LIMIT $2)`,
    [now, limit],
  );
  return res.rowCount;
}
