/**
 * Server-side operator sessions. The cookie carries a random id; `gateway.operator_sessions` holds only its
 * SHA-256, the operator, when it was created and last used, when it expires, and when it was rotated or
 * ended. A session ends at its absolute expiry, after `idleMs` unused, on sign-out, or when its operator is
 * disabled. Once `rotateMs` old it is replaced by a new id with the same expiry; the old id stays valid for
 * ROTATION_GRACE_SECONDS so requests already in flight with it still pass.
 */
import { camelCaseKeys } from "@payouts/platform/database/camel-case-keys";
import type { Queryable } from "@payouts/platform/database/database";
import type { OperatorRole } from "../admin/admin-actor.js";
import { randomToken, tokenDigest } from "./operator-secrets.js";

export interface SessionPolicy {
  readonly ttlMs: number;
  readonly idleMs: number;
  readonly rotateMs: number;
}

export interface ActiveSession {
  readonly sessionHash: string;
  readonly operatorId: string;
  readonly username: string;
  readonly role: OperatorRole;
  /** The session is old enough to get a new id. */
  readonly rotationDue: boolean;
  readonly idTokenHint: string | null;
}

const ROTATION_GRACE_SECONDS = 30;
export const SESSION_ID_PREFIX = "ses_";

/** Opens a session for the operator; answers the id for the cookie (never stored). */
export async function openSession(
  db: Queryable,
  operatorId: string,
  policy: SessionPolicy,
  idTokenHint?: string,
): Promise<string> {
  const id = randomToken(SESSION_ID_PREFIX);
  await db.query(
    `INSERT INTO gateway.operator_sessions (session_hash, operator_id, expires_at, id_token_hint)
     VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000), $4)`,
    [tokenDigest(id), operatorId, policy.ttlMs, idTokenHint ?? null],
  );
  return id;
}

/** The live session of a cookie value, its last use recorded; undefined when it has ended in any way. */
export async function touchSession(
  db: Queryable,
  id: string,
  policy: SessionPolicy,
): Promise<ActiveSession | undefined> {
  if (!id.startsWith(SESSION_ID_PREFIX)) return undefined;
  const res = await db.query<{
    session_hash: string;
    operator_id: string;
    username: string;
    role: OperatorRole;
    rotation_due: boolean;
    id_token_hint: string | null;
  }>(
    `UPDATE gateway.operator_sessions s SET last_seen_at = now()
       FROM gateway.operators o
      WHERE s.session_hash = $1 AND o.operator_id = s.operator_id
        AND s.ended_at IS NULL AND s.expires_at > now() AND o.disabled_at IS NULL
        AND s.last_seen_at > now() - make_interval(secs => $2::double precision / 1000)
     RETURNING s.session_hash, s.operator_id, o.username, o.role, s.id_token_hint,
               (s.rotated_at IS NULL AND s.created_at <= now() - make_interval(secs => $3::double precision / 1000))
                 AS rotation_due`,
    [tokenDigest(id), policy.idleMs, policy.rotateMs],
  );
  const row = res.rows[0];
  return row && camelCaseKeys(row);
}

/**
 * Replaces the session with a new id of the same operator and expiry; the old id ends after a short grace.
 * Undefined when another request rotated it first (that request's answer carries the new cookie).
 */
export async function rotateSession(db: Queryable, sessionHash: string): Promise<string | undefined> {
  const id = randomToken(SESSION_ID_PREFIX);
  const res = await db.query<{ session_hash: string }>(
    `WITH old AS (
       UPDATE gateway.operator_sessions
          SET rotated_at = now(), expires_at = LEAST(expires_at, now() + make_interval(secs => $3))
        WHERE session_hash = $1 AND rotated_at IS NULL AND ended_at IS NULL
        RETURNING operator_id, id_token_hint,
                  (SELECT expires_at FROM gateway.operator_sessions WHERE session_hash = $1) AS original_expiry
     )
     INSERT INTO gateway.operator_sessions (session_hash, operator_id, expires_at, id_token_hint)
     SELECT $2, operator_id, original_expiry, id_token_hint FROM old
     RETURNING session_hash`,
    [sessionHash, tokenDigest(id), ROTATION_GRACE_SECONDS],
  );
  return res.rows.length > 0 ? id : undefined;
}

/**
 * Ends the session, and the operator's rotated-away ids still in their grace (a copy of the cookie taken
 * just before a rotation must not outlive the sign-out).
 */
export async function endSession(db: Queryable, sessionHash: string): Promise<void> {
  await db.query(
    `UPDATE gateway.operator_sessions SET ended_at = now()
      WHERE ended_at IS NULL AND (
        session_hash = $1 OR (rotated_at IS NOT NULL AND operator_id =
          (SELECT operator_id FROM gateway.operator_sessions WHERE session_hash = $1)))`,
    [sessionHash],
  );
}
