/**
 * Four-eyes approval requests (gateway.approval_requests). Every change of status is one conditional
 * UPDATE … WHERE status = … RETURNING: two operators deciding at once get one row back between them, so
 * exactly one decision (and one execution) wins.
 */
import { camelCaseKeys } from "@payouts/platform/database/camel-case-keys";
import type { Queryable } from "@payouts/platform/database/database";
import { firstRow } from "@payouts/platform/database/first-row";
import type { AdminActor } from "../admin/admin-actor.js";
import type { ApprovalAction, ApprovalStatus } from "../approvals/four-eyes-rules.js";

export interface ApprovalRow {
  approval_id: string;
  action: ApprovalAction;
  partner_id: string | null;
  tx_id: string | null;
  amount_usd: string | null;
  request_body: Record<string, unknown>;
  idempotency_key: string | null;
  request_fingerprint: string | null;
  requested_by_id: string;
  requested_by_name: string;
  requested_by_kind: AdminActor["kind"];
  created_at: Date;
  expires_at: Date;
  status: ApprovalStatus;
  decided_by_id: string | null;
  decided_by_name: string | null;
  decided_by_kind: AdminActor["kind"] | null;
  decided_at: Date | null;
  decision_reason: string | null;
  outcome: Record<string, unknown> | null;
  executed_at: Date | null;
}

type Actor = Pick<AdminActor, "id" | "name" | "kind">;

export interface ApprovalRecord {
  readonly approvalId: string;
  readonly action: ApprovalAction;
  readonly partnerId: string | null;
  readonly txId: string | null;
  readonly amountUsd: string | null;
  /** The validated request body, carried out as is once approved. */
  readonly requestBody: Record<string, unknown>;
  readonly idempotencyKey: string | null;
  readonly requestFingerprint: string | null;
  readonly requestedBy: Actor;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly status: ApprovalStatus;
  readonly decidedBy: Actor | null;
  readonly decidedAt: Date | null;
  readonly decisionReason: string | null;
  /** What carrying it out answered (wire-shaped: the ledger's answer as the direct route renders it). */
  readonly outcome: Record<string, unknown> | null;
  readonly executedAt: Date | null;
}

/** The row's columns in camelCase, with the requester and the decider each as one actor. */
function toRecord(row: ApprovalRow): ApprovalRecord {
  const {
    requested_by_id: requesterId,
    requested_by_name: requesterName,
    requested_by_kind: requesterKind,
    decided_by_id: deciderId,
    decided_by_name: deciderName,
    decided_by_kind: deciderKind,
    ...columns
  } = row;
  return {
    ...camelCaseKeys(columns),
    requestedBy: { id: requesterId, name: requesterName, kind: requesterKind },
    decidedBy:
      deciderId === null ? null : { id: deciderId, name: deciderName ?? "", kind: deciderKind ?? "operator" },
  };
}

/** A request to store: the fields of its record known when it is made, and how long it may wait. */
export type NewApproval = Pick<
  ApprovalRecord,
  | "approvalId"
  | "action"
  | "partnerId"
  | "txId"
  | "amountUsd"
  | "requestBody"
  | "idempotencyKey"
  | "requestFingerprint"
  | "requestedBy"
> & { readonly ttlMs: number };

/**
 * Stores a new PENDING request expiring `ttlMs` from the database's clock. A request with an idempotency
 * key another request of the same action already holds is not stored: the existing one is answered
 * (`created: false`), for the caller to tell a replay from a reused key.
 */
export async function insertApproval(
  db: Queryable,
  input: NewApproval,
): Promise<{ readonly created: boolean; readonly approval: ApprovalRecord }> {
  const res = await db.query<ApprovalRow>(
    `INSERT INTO gateway.approval_requests
       (approval_id, action, partner_id, tx_id, amount_usd, request_body, idempotency_key, request_fingerprint,
        requested_by_id, requested_by_name, requested_by_kind, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() + $12 * interval '1 millisecond')
     ON CONFLICT (action, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING *`,
    [
      input.approvalId,
      input.action,
      input.partnerId,
      input.txId,
      input.amountUsd,
      JSON.stringify(input.requestBody),
      input.idempotencyKey,
      input.requestFingerprint,
      input.requestedBy.id,
      input.requestedBy.name,
      input.requestedBy.kind,
      input.ttlMs,
    ],
  );
  const inserted = res.rows[0];
  if (inserted) return { created: true, approval: toRecord(inserted) };
  const existing = await findApprovalByKey(db, input.action, input.idempotencyKey ?? "");
  if (!existing) throw new Error("approval request key conflict without a holder");
  return { created: false, approval: existing };
}

export function findApproval(db: Queryable, approvalId: string): Promise<ApprovalRecord | undefined> {
  return oneApproval(db, "SELECT * FROM gateway.approval_requests WHERE approval_id = $1", [approvalId]);
}

export function findApprovalByKey(
  db: Queryable,
  action: ApprovalAction,
  idempotencyKey: string,
): Promise<ApprovalRecord | undefined> {
  return oneApproval(
    db,
    "SELECT * FROM gateway.approval_requests WHERE action = $1 AND idempotency_key = $2",
    [action, idempotencyKey],
  );
}

/** Requests newest first, of one status when given, at most `limit`. */
export async function listApprovals(
  db: Queryable,
  filter: { readonly status?: ApprovalStatus; readonly limit: number },
): Promise<ApprovalRecord[]> {
  const res = await db.query<ApprovalRow>(
    `SELECT * FROM gateway.approval_requests
     WHERE ($1::text IS NULL OR status = $1)
     ORDER BY created_at DESC, approval_id DESC
     LIMIT $2`,
    [filter.status ?? null, filter.limit],
  );
  return res.rows.map(toRecord);
}

/** Marks every PENDING request past its deadline EXPIRED; answers how many. */
export async function expireOverdueApprovals(db: Queryable): Promise<number> {
  const res = await db.query(
    "UPDATE gateway.approval_requests SET status = 'EXPIRED' WHERE status = 'PENDING' AND expires_at <= now()",
  );
  return res.rowCount ?? 0;
}

/**
 * PENDING and unexpired → EXECUTING, decided by `actor`: the one winner of concurrent approvals gets the
 * row; everyone else gets undefined.
 */
export function claimApproval(
  db: Queryable,
  approvalId: string,
  actor: Actor,
): Promise<ApprovalRecord | undefined> {
  return decidePending(db, approvalId, actor, "EXECUTING", null);
}

/** EXECUTING → APPROVED with what carrying it out answered; undefined when another attempt recorded it first. */
export function recordApprovalOutcome(
  db: Queryable,
  approvalId: string,
  outcome: Record<string, unknown>,
): Promise<ApprovalRecord | undefined> {
  return oneApproval(
    db,
    `UPDATE gateway.approval_requests SET status = 'APPROVED', outcome = $2, executed_at = now()
     WHERE approval_id = $1 AND status = 'EXECUTING'
     RETURNING *`,
    [approvalId, JSON.stringify(outcome)],
  );
}

/** PENDING and unexpired → REJECTED by `actor`; undefined when it was no longer pending. */
export function rejectApproval(
  db: Queryable,
  approvalId: string,
  actor: Actor,
  reason: string,
): Promise<ApprovalRecord | undefined> {
  return decidePending(db, approvalId, actor, "REJECTED", reason);
}

/** A PENDING, unexpired request → `status`, decided by `actor` now; undefined when it was no longer pending. */
function decidePending(
  db: Queryable,
  approvalId: string,
  actor: Actor,
  status: "EXECUTING" | "REJECTED",
  reason: string | null,
): Promise<ApprovalRecord | undefined> {
  return oneApproval(
    db,
    `UPDATE gateway.approval_requests
     SET status = $5, decided_by_id = $2, decided_by_name = $3, decided_by_kind = $4, decided_at = now(),
         decision_reason = $6
     WHERE approval_id = $1 AND status = 'PENDING' AND expires_at > now()
     RETURNING *`,
    [approvalId, actor.id, actor.name, actor.kind, status, reason],
  );
}

/** The record of the row a statement answers; undefined when it answers none. */
async function oneApproval(
  db: Queryable,
  sql: string,
  params: unknown[],
): Promise<ApprovalRecord | undefined> {
  const row = await firstRow<ApprovalRow>(db, sql, params);
  return row && toRecord(row);
}

/** Approved requests still EXECUTING whose decision is at least `olderThanMs` old: for the re-drive sweep. */
export async function listStaleExecutions(
  db: Queryable,
  olderThanMs: number,
  limit: number,
): Promise<ApprovalRecord[]> {
  const res = await db.query<ApprovalRow>(
    `SELECT * FROM gateway.approval_requests
     WHERE status = 'EXECUTING' AND decided_at <= now() - $1 * interval '1 millisecond'
     ORDER BY decided_at LIMIT $2`,
    [olderThanMs, limit],
  );
  return res.rows.map(toRecord);
}
