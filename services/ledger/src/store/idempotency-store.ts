/**
 * SQL of ledger.idempotency_keys. A key being executed is represented by a transaction-scoped advisory
 * lock rather than an "in progress" row: the lock vanishes with its transaction, so a crash never leaves
 * a key stuck and no recovery job is needed.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Statement } from "./statement.js";

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

/** What the key did: executed one transaction, posted one credit movement, or created one batch. */
export type KeySubject =
  | { readonly txId: string }
  | { readonly movementId: string }
  | { readonly batchId: string };

export interface StoredKey {
  readonly fingerprint: string;
  readonly subject: KeySubject;
  readonly requestId: string;
  readonly outcome: StoredOutcome;
}

/**
 * Takes the key for this database transaction: "locked" when it now owns it, "in-use" when another
 * transaction is executing it. With `condition` (a part of `st` with one boolean column `ok`), the lock is
 * only tried when the condition holds ("condition-false" otherwise: nothing was locked), in one statement.
 */
export async function tryLockKey(
  q: Queryable,
  scope: KeyScope,
  st: Statement = new Statement(),
  condition?: string,
): Promise<"locked" | "in-use" | "condition-false"> {
  const key = st.p(JSON.stringify(["ledger.idempotency", scope.partnerId, scope.route, scope.key]));
  const lock = `pg_try_advisory_xact_lock(hashtextextended(${key}, 0))`;
  const res = await st.run<{ ok: boolean; locked: boolean | null }>(
    q,
    condition
      ? `SELECT c.ok, CASE WHEN c.ok THEN ${lock} END AS locked FROM ${condition} AS c`
      : `SELECT true AS ok, ${lock} AS locked`,
  );
  const row = res.rows[0];
  if (row?.ok !== true) return "condition-false";
  return row.locked === true ? "locked" : "in-use";
}

export interface KeyRow {
  key_fingerprint: string | null;
  key_tx_id: string | null;
  key_movement_id: string | null;
  key_batch_id: string | null;
  key_request_id: string;
  key_state: string;
  key_response: Uint8Array | null;
  key_error_reason: string | null;
  key_error_message: string | null;
  key_error_field: string | null;
}

/**
 * Parts `k_expired` (deletes the key's record when it expired, so the key starts afresh) and `k` (its live
 * record, if any; a record without expires_at, an operator credit's, never expires). Returns the select list of `k`'s columns for the main query; keyFromRow maps it.
 */
export function addLiveKey(st: Statement, scope: KeyScope, now: Date): string {
  const where = `partner_id = ${st.p(scope.partnerId)} AND route = ${st.p(scope.route)}
     AND idempotency_key = ${st.p(scope.key)}`;
  const at = st.p(now);
  st.with("k_expired", `DELETE FROM ledger.idempotency_keys WHERE ${where} AND expires_at <= ${at}`);
  st.with(
    "k",
    `SELECT fingerprint, tx_id, movement_id, batch_id, request_id, state, response, error_reason, error_message,
            error_field
       FROM ledger.idempotency_keys WHERE ${where} AND (expires_at IS NULL OR expires_at > ${at})`,
    true,
  );
  return `k.fingerprint AS key_fingerprint, k.tx_id AS key_tx_id, k.movement_id AS key_movement_id, k.batch_id AS key_batch_id,
    k.request_id AS key_request_id, k.state AS key_state, k.response AS key_response,
    k.error_reason AS key_error_reason, k.error_message AS key_error_message, k.error_field AS key_error_field`;
}

export function keyFromRow(r: Partial<KeyRow> | undefined): StoredKey | undefined {
  if (r?.key_fingerprint === undefined || r.key_fingerprint === null) return undefined;
  const outcome: StoredOutcome =
    r.key_state === "succeeded"
      ? { state: "succeeded", response: new Uint8Array(r.key_response ?? new Uint8Array()) }
      : {
          state: "failed",
          reason: r.key_error_reason ?? "INTERNAL",
          message: r.key_error_message ?? "",
          field: r.key_error_field ?? "",
        };
  const subject: KeySubject =
    r.key_tx_id !== null && r.key_tx_id !== undefined
      ? { txId: r.key_tx_id }
      : r.key_batch_id !== null && r.key_batch_id !== undefined
        ? { batchId: r.key_batch_id }
        : { movementId: r.key_movement_id ?? "" };
  return { fingerprint: r.key_fingerprint, subject, requestId: r.key_request_id ?? "", outcome };
}

/** The live record of a key (an expired one is deleted, so the key starts afresh): one statement. */
export async function findKey(q: Queryable, scope: KeyScope, now: Date): Promise<StoredKey | undefined> {
  const st = new Statement();
  const select = addLiveKey(st, scope, now);
  const res = await st.run<KeyRow>(q, `SELECT ${select} FROM k`);
  return keyFromRow(res.rows[0]);
}

/** The INSERT of a key's record, as a part of `st`; `expiresAt` null keeps it for good. */
export function addKey(
  st: Statement,
  scope: KeyScope,
  record: StoredKey,
  createdAt: Date,
  expiresAt: Date | null,
): string {
  const o = record.outcome;
  const v = (value: unknown) => st.p(value);
  return st.with(
    "key_new",
    `INSERT INTO ledger.idempotency_keys (partner_id, route, idempotency_key, fingerprint, state, tx_id,
       response, error_reason, error_message, error_field, request_id, created_at, expires_at, movement_id,
       batch_id)
     VALUES (${v(scope.partnerId)}, ${v(scope.route)}, ${v(scope.key)}, ${v(record.fingerprint)}, ${v(o.state)},
       ${v("txId" in record.subject ? record.subject.txId : null)},
       ${v(o.state === "succeeded" ? Buffer.from(o.response) : null)},
       ${v(o.state === "failed" ? o.reason : null)}, ${v(o.state === "failed" ? o.message : null)},
       ${v(o.state === "failed" ? o.field : null)}, ${v(record.requestId)}, ${v(createdAt)}, ${v(expiresAt)},
       ${v("movementId" in record.subject ? record.subject.movementId : null)},
       ${v("batchId" in record.subject ? record.subject.batchId : null)})`,
  );
}

export async function storeKey(
  q: Queryable,
  scope: KeyScope,
  record: StoredKey,
  createdAt: Date,
  expiresAt: Date | null,
): Promise<void> {
  const st = new Statement();
  addKey(st, scope, record, createdAt, expiresAt);
  await st.run(q, "SELECT 1");
}
