/**
 * SQL of ledger.batches, ledger.batch_items and ledger.batch_approvals. The caller owns the database
 * transaction; locking reads say so.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { queryOne } from "@payouts/platform/database/query-one";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import {
  fromRow,
  type StoredTransaction,
  TRANSACTION_COLUMNS,
  type TxRow,
} from "../../store/transaction-store.js";
import {
  type BatchCounts,
  type BatchStatus,
  countItems,
  type ItemStatus,
  isBatchStatus,
  isItemStatus,
} from "../domain/batch-status.js";
import type { MismatchPolicy, NameMatch } from "../domain/name-match.js";

export interface StoredBatch {
  readonly batchId: string;
  readonly partnerId: string;
  readonly status: BatchStatus;
  readonly requiredApprovals: 1 | 2;
  readonly nameMismatchPolicy: MismatchPolicy;
  readonly contentSha256: string;
  readonly source: string;
  readonly parentBatchId: string;
  readonly cancelReason: string;
  readonly approvalRound: number;
  readonly reservedUsd: Dec | undefined;
  readonly releasedUsd: Dec | undefined;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly validatedAt: Date | undefined;
  readonly fundedAt: Date | undefined;
  readonly completedAt: Date | undefined;
  readonly expiresAt: Date | undefined;
}

/** A batch as read for display: with its approvals, item counts, payable total and what it holds now. */
export interface BatchView extends StoredBatch {
  readonly approvals: readonly { readonly approverId: string; readonly at: Date }[];
  readonly counts: BatchCounts;
  readonly totalUsd: Dec;
  readonly heldUsd: Dec;
}

export interface StoredItem {
  readonly batchId: string;
  readonly itemRef: string;
  readonly rowNumber: number;
  readonly status: ItemStatus;
  readonly version: number;
  /** payouts.ledger.v1.BatchItemInput in proto JSON form. */
  readonly input: Record<string, unknown>;
  readonly errorCode: string;
  readonly errorField: string;
  readonly errorMessage: string;
  readonly verifiedName: string;
  readonly nameMatch: NameMatch | "UNSPECIFIED";
  readonly txId: string | undefined;
  readonly totalUsd: Dec | undefined;
  readonly failureReason: string;
  readonly updatedAt: Date;
}

const BATCH_COLUMNS = `batch_id, partner_id, status, required_approvals, name_mismatch_policy, content_sha256,
  source, parent_batch_id, cancel_reason, approval_round, reserved_usd, released_usd, created_at, updated_at, validated_at,
  funded_at, completed_at, expires_at`;

interface BatchRow {
  batch_id: string;
  partner_id: string;
  status: string;
  required_approvals: number;
  name_mismatch_policy: string;
  content_sha256: string;
  source: string;
  parent_batch_id: string | null;
  cancel_reason: string;
  approval_round: number;
  reserved_usd: string | null;
  released_usd: string | null;
  created_at: Date;
  updated_at: Date;
  validated_at: Date | null;
  funded_at: Date | null;
  completed_at: Date | null;
  expires_at: Date | null;
}

function batchFromRow(r: BatchRow): StoredBatch {
  if (!isBatchStatus(r.status)) throw new Error(`unknown batch status ${r.status} on ${r.batch_id}`);
  return {
    batchId: r.batch_id,
    partnerId: r.partner_id,
    status: r.status,
    requiredApprovals: r.required_approvals === 2 ? 2 : 1,
    nameMismatchPolicy: r.name_mismatch_policy === "INCLUDE" ? "INCLUDE" : "EXCLUDE",
    contentSha256: r.content_sha256,
    source: r.source,
    parentBatchId: r.parent_batch_id ?? "",
    cancelReason: r.cancel_reason,
    approvalRound: r.approval_round,
    reservedUsd: r.reserved_usd === null ? undefined : new Dec(r.reserved_usd),
    releasedUsd: r.released_usd === null ? undefined : new Dec(r.released_usd),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    validatedAt: r.validated_at ?? undefined,
    fundedAt: r.funded_at ?? undefined,
    completedAt: r.completed_at ?? undefined,
    expiresAt: r.expires_at ?? undefined,
  };
}

const ITEM_COLUMNS = `batch_id, item_ref, row_number, status, version, input, error_code, error_field,
  error_message, verified_name, name_match, tx_id, total_usd, failure_reason, updated_at`;

interface ItemRow {
  batch_id: string;
  item_ref: string;
  row_number: number;
  status: string;
  version: number;
  input: Record<string, unknown>;
  error_code: string;
  error_field: string;
  error_message: string;
  verified_name: string;
  name_match: string;
  tx_id: string | null;
  total_usd: string | null;
  failure_reason: string;
  updated_at: Date;
}

function itemFromRow(r: ItemRow): StoredItem {
  if (!isItemStatus(r.status))
    throw new Error(`unknown item status ${r.status} on ${r.batch_id}/${r.item_ref}`);
  return {
    batchId: r.batch_id,
    itemRef: r.item_ref,
    rowNumber: r.row_number,
    status: r.status,
    version: r.version,
    input: r.input,
    errorCode: r.error_code,
    errorField: r.error_field,
    errorMessage: r.error_message,
    verifiedName: r.verified_name,
    nameMatch: r.name_match as StoredItem["nameMatch"],
    txId: r.tx_id ?? undefined,
    totalUsd: r.total_usd === null ? undefined : new Dec(r.total_usd),
    failureReason: r.failure_reason,
    updatedAt: r.updated_at,
  };
}

export interface NewBatch
  extends Pick<
    StoredBatch,
    | "batchId"
    | "partnerId"
    | "status"
    | "requiredApprovals"
    | "nameMismatchPolicy"
    | "contentSha256"
    | "source"
    | "parentBatchId"
  > {
  readonly now: Date;
}

/** Inserts the batch; false when the partner already has a batch with this content (BATCH_DUPLICATE). */
export async function insertBatch(q: Queryable, b: NewBatch): Promise<boolean> {
  const res = await q.query(
    `INSERT INTO ledger.batches (batch_id, partner_id, status, required_approvals, name_mismatch_policy,
       content_sha256, source, parent_batch_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     ON CONFLICT (partner_id, content_sha256) WHERE content_sha256 <> '' DO NOTHING`,
    [
      b.batchId,
      b.partnerId,
      b.status,
      b.requiredApprovals,
      b.nameMismatchPolicy,
      b.contentSha256,
      b.source,
      b.parentBatchId === "" ? null : b.parentBatchId,
      b.now,
    ],
  );
  return res.rowCount === 1;
}

/** The partner's batch holding `contentSha256`, if any. */
export async function batchWithContent(
  q: Queryable,
  partnerId: string,
  contentSha256: string,
): Promise<string | undefined> {
  const res = await q.query<{ batch_id: string }>(
    "SELECT batch_id FROM ledger.batches WHERE partner_id = $1 AND content_sha256 = $2",
    [partnerId, contentSha256],
  );
  return res.rows[0]?.batch_id;
}

/** One batch; partner-scoped unless `partnerId` is empty (an operator); `forUpdate` row-locks it. */
export async function findBatch(
  q: Queryable,
  batchId: string,
  partnerId: string,
  forUpdate = false,
): Promise<StoredBatch | undefined> {
  return queryOne(
    q,
    `SELECT ${BATCH_COLUMNS} FROM ledger.batches
      WHERE batch_id = $1 AND ($2 = '' OR partner_id = $2) ${forUpdate ? "FOR UPDATE" : ""}`,
    [batchId, partnerId],
    batchFromRow,
  );
}

/** The batch with its approvals, counts, payable total and current reservation, for display. */
export async function viewBatch(q: Queryable, batch: StoredBatch): Promise<BatchView> {
  const res = await q.query<{
    statuses: string[] | null;
    total_usd: string;
    held_usd: string;
    approvals: [string, number][] | null;
  }>(
    `SELECT
       (SELECT array_agg(status) FROM ledger.batch_items WHERE batch_id = $1) AS statuses,
       (SELECT COALESCE(SUM(total_usd), 0) FROM ledger.batch_items
         WHERE batch_id = $1 AND status IN ('PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'))::text AS total_usd,
       (SELECT held_usd FROM ledger.batches WHERE batch_id = $1)::text AS held_usd,
       (SELECT json_agg(json_build_array(approver_id, (extract(epoch FROM approved_at) * 1000)::float8)
                        ORDER BY approved_at, approver_id)
          FROM ledger.batch_approvals WHERE batch_id = $1 AND round = $2) AS approvals`,
    [batch.batchId, batch.approvalRound],
  );
  const r = res.rows[0];
  const statuses = (r?.statuses ?? []).filter(isItemStatus);
  return {
    ...batch,
    counts: countItems(statuses),
    totalUsd: new Dec(r?.total_usd ?? "0"),
    heldUsd: new Dec(r?.held_usd ?? "0"),
    approvals: (r?.approvals ?? []).map(([approverId, at]) => ({ approverId, at: new Date(Math.trunc(at)) })),
  };
}

export interface BatchListFilter {
  readonly partnerId: string;
  readonly status: BatchStatus | undefined;
  readonly after: { readonly createdAt: Date; readonly id: string } | undefined;
  readonly limit: number;
}

/** Newest first by (created_at, batch_id); an empty partnerId reads every partner's (operators). */
export async function listBatches(q: Queryable, f: BatchListFilter): Promise<StoredBatch[]> {
  const res = await q.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM ledger.batches
      WHERE ($1 = '' OR partner_id = $1) AND ($2::text IS NULL OR status = $2)
        AND ($3::timestamptz IS NULL OR (created_at, batch_id) < ($3, $4))
      ORDER BY created_at DESC, batch_id DESC LIMIT $5`,
    [f.partnerId, f.status ?? null, f.after?.createdAt ?? null, f.after?.id ?? "", f.limit],
  );
  return res.rows.map(batchFromRow);
}

/** In row order after `afterRow`, optionally of one status. */
export async function listItems(
  q: Queryable,
  batchId: string,
  status: ItemStatus | undefined,
  afterRow: number,
  limit: number,
): Promise<StoredItem[]> {
  const res = await q.query<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM ledger.batch_items
      WHERE batch_id = $1 AND ($2::text IS NULL OR status = $2) AND row_number > $3
      ORDER BY row_number LIMIT $4`,
    [batchId, status ?? null, afterRow, limit],
  );
  return res.rows.map(itemFromRow);
}

export async function findItem(
  q: Queryable,
  batchId: string,
  itemRef: string,
): Promise<StoredItem | undefined> {
  return queryOne(
    q,
    `SELECT ${ITEM_COLUMNS} FROM ledger.batch_items WHERE batch_id = $1 AND item_ref = $2`,
    [batchId, itemRef],
    itemFromRow,
  );
}

/** Items of given statuses, in row order. */
export async function itemsIn(
  q: Queryable,
  batchId: string,
  statuses: readonly ItemStatus[],
): Promise<StoredItem[]> {
  const res = await q.query<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM ledger.batch_items WHERE batch_id = $1 AND status = ANY($2::text[])
      ORDER BY row_number`,
    [batchId, [...statuses]],
  );
  return res.rows.map(itemFromRow);
}

/**
 * Adds items (new refs after the last row) or replaces those whose ref exists (same row, version + 1, back to
 * VALIDATING, its earlier result cleared), and queues each for validation: one statement.
 */
export async function putItems(
  q: Queryable,
  batchId: string,
  items: readonly { readonly itemRef: string; readonly input: Record<string, unknown> }[],
  now: Date,
): Promise<void> {
  if (items.length === 0) return;
  await q.query(
    `WITH given AS (
       SELECT g.item_ref, g.input::jsonb AS input, g.ord
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS g(item_ref, input, ord)),
     last AS (SELECT COALESCE(MAX(row_number), 0) AS n FROM ledger.batch_items WHERE batch_id = $1),
     fresh AS (
       SELECT g.item_ref, g.input, (SELECT n FROM last) + row_number() OVER (ORDER BY g.ord) AS row_number
         FROM given g
        WHERE NOT EXISTS (SELECT 1 FROM ledger.batch_items i WHERE i.batch_id = $1 AND i.item_ref = g.item_ref)),
     inserted AS (
       INSERT INTO ledger.batch_items (batch_id, item_ref, row_number, status, input, updated_at)
       SELECT $1, item_ref, row_number, 'VALIDATING', input, $4 FROM fresh
       RETURNING item_ref, version),
     replaced AS (
       UPDATE ledger.batch_items i
          SET input = g.input, status = 'VALIDATING', version = i.version + 1, error_code = '',
              error_field = '', error_message = '', verified_name = '', name_match = 'UNSPECIFIED',
              tx_id = NULL, total_usd = NULL, failure_reason = '', updated_at = $4
         FROM given g
        WHERE i.batch_id = $1 AND i.item_ref = g.item_ref
       RETURNING i.item_ref, i.version)
     INSERT INTO ledger.batch_work (batch_id, item_ref, kind, version, available_at)
     SELECT $1, item_ref, 'validate', version, $4 FROM (SELECT * FROM inserted UNION ALL SELECT * FROM replaced) w
     ON CONFLICT (batch_id, item_ref, kind)
       DO UPDATE SET version = EXCLUDED.version, available_at = EXCLUDED.available_at, attempts = 0,
                     lease_until = NULL, last_error = ''`,
    [batchId, items.map((i) => i.itemRef), items.map((i) => JSON.stringify(i.input)), now],
  );
}

/** Removes items (and their queued work); returns how many were removed. */
export async function removeItems(
  q: Queryable,
  batchId: string,
  itemRefs: readonly string[],
): Promise<number> {
  const res = await q.query(
    `WITH work AS (DELETE FROM ledger.batch_work WHERE batch_id = $1 AND item_ref = ANY($2::text[]))
     DELETE FROM ledger.batch_items WHERE batch_id = $1 AND item_ref = ANY($2::text[])`,
    [batchId, [...itemRefs]],
  );
  return res.rowCount ?? 0;
}

export async function countItemsOf(q: Queryable, batchId: string): Promise<number> {
  const res = await q.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM ledger.batch_items WHERE batch_id = $1",
    [batchId],
  );
  return res.rows[0]?.n ?? 0;
}

/** Sets the batch's status and the columns given; the caller holds its row lock. */
export async function updateBatch(
  q: Queryable,
  batchId: string,
  status: BatchStatus,
  now: Date,
  set: {
    readonly validatedAt?: Date | null;
    readonly expiresAt?: Date | null;
    readonly fundedAt?: Date;
    readonly reservedUsd?: Dec;
    readonly completedAt?: Date;
    readonly releasedUsd?: Dec;
    readonly cancelReason?: string;
  } = {},
): Promise<void> {
  await q.query(
    `UPDATE ledger.batches
        SET status = $2, updated_at = $3,
            validated_at = CASE WHEN $4 THEN $5::timestamptz ELSE validated_at END,
            expires_at = CASE WHEN $6 THEN $7::timestamptz ELSE expires_at END,
            funded_at = COALESCE($8, funded_at), reserved_usd = COALESCE($9::numeric, reserved_usd),
            completed_at = COALESCE($10, completed_at), released_usd = COALESCE($11::numeric, released_usd),
            cancel_reason = COALESCE($12, cancel_reason)
      WHERE batch_id = $1`,
    [
      batchId,
      status,
      now,
      set.validatedAt !== undefined,
      set.validatedAt ?? null,
      set.expiresAt !== undefined,
      set.expiresAt ?? null,
      set.fundedAt ?? null,
      set.reservedUsd === undefined ? null : toDecimalString(set.reservedUsd),
      set.completedAt ?? null,
      set.releasedUsd === undefined ? null : toDecimalString(set.releasedUsd),
      set.cancelReason ?? null,
    ],
  );
}

/** Moves every item in `from` to `to` (e.g. PENDING → CANCELLED when a batch is cancelled). */
export async function moveItems(
  q: Queryable,
  batchId: string,
  from: readonly ItemStatus[],
  to: ItemStatus,
  now: Date,
  failureReason = "",
): Promise<void> {
  await q.query(
    `UPDATE ledger.batch_items SET status = $3, updated_at = $4,
            failure_reason = CASE WHEN $5 = '' THEN failure_reason ELSE $5 END
      WHERE batch_id = $1 AND status = ANY($2::text[])`,
    [batchId, [...from], to, now, failureReason],
  );
}

/** Records one approval of the batch's current round; false when this approver already gave it. */
export async function addApproval(
  q: Queryable,
  batch: Pick<StoredBatch, "batchId" | "approvalRound">,
  approverId: string,
  now: Date,
): Promise<boolean> {
  const res = await q.query(
    `INSERT INTO ledger.batch_approvals (batch_id, round, approver_id, approved_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (batch_id, round, approver_id) DO NOTHING`,
    [batch.batchId, batch.approvalRound, approverId, now],
  );
  return res.rowCount === 1;
}

export async function approvalCount(
  q: Queryable,
  batch: Pick<StoredBatch, "batchId" | "approvalRound">,
): Promise<number> {
  const res = await q.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM ledger.batch_approvals WHERE batch_id = $1 AND round = $2",
    [batch.batchId, batch.approvalRound],
  );
  return res.rows[0]?.n ?? 0;
}

/** The items changed: approvals given so far no longer count. */
export async function startApprovalRound(q: Queryable, batchId: string): Promise<void> {
  await q.query("UPDATE ledger.batches SET approval_round = approval_round + 1 WHERE batch_id = $1", [
    batchId,
  ]);
}

/** What the batch's share of the reservation holds now (its reservation entries' sum). */
export async function batchHeld(q: Queryable, batchId: string): Promise<Dec> {
  const res = await q.query<{ held: string }>(
    "SELECT held_usd::text AS held FROM ledger.batches WHERE batch_id = $1",
    [batchId],
  );
  return new Dec(res.rows[0]?.held ?? "0");
}

/** Σ total_usd of the items in `statuses`. */
export async function sumItemTotals(
  q: Queryable,
  batchId: string,
  statuses: readonly ItemStatus[],
): Promise<Dec> {
  const res = await q.query<{ total: string }>(
    `SELECT COALESCE(SUM(total_usd), 0)::text AS total FROM ledger.batch_items
      WHERE batch_id = $1 AND status = ANY($2::text[])`,
    [batchId, [...statuses]],
  );
  return new Dec(res.rows[0]?.total ?? "0");
}

/** Statuses of the batch's items, for counts. */
export async function itemStatuses(q: Queryable, batchId: string): Promise<ItemStatus[]> {
  const res = await q.query<{ status: string }>("SELECT status FROM ledger.batch_items WHERE batch_id = $1", [
    batchId,
  ]);
  return res.rows.map((r) => r.status).filter(isItemStatus);
}

/**
 * Items whose payout ran: their transaction reached SUCCESS, FAILED or REFUNDED (each passed through
 * PROCESSING, so each emitted one transaction.success or transaction.failed). An item failed without being
 * paid keeps a PENDING or EXPIRED transaction and is not counted.
 */
export async function countExecutedItems(q: Queryable, batchId: string): Promise<number> {
  const res = await q.query<{ executed: number }>(
    `SELECT count(*)::int AS executed FROM ledger.batch_items i JOIN ledger.transactions t ON t.tx_id = i.tx_id
      WHERE i.batch_id = $1 AND t.status IN ('SUCCESS', 'FAILED', 'REFUNDED')`,
    [batchId],
  );
  return res.rows[0]?.executed ?? 0;
}

/** Whether any funded item still waits to be paid or is in flight (an index probe). */
export async function hasUnfinishedItems(q: Queryable, batchId: string): Promise<boolean> {
  const res = await q.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ledger.batch_items
                     WHERE batch_id = $1 AND status IN ('PENDING', 'PROCESSING')) AS found`,
    [batchId],
  );
  return res.rows[0]?.found === true;
}

/** Whether any item of the batch is still being validated (an index probe). */
export async function hasValidatingItems(q: Queryable, batchId: string): Promise<boolean> {
  const res = await q.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ledger.batch_items WHERE batch_id = $1 AND status = 'VALIDATING') AS found`,
    [batchId],
  );
  return res.rows[0]?.found === true;
}

/** The transactions of a page of items, in one read, by tx_id. */
export async function transactionsOf(
  q: Queryable,
  txIds: readonly string[],
): Promise<Map<string, StoredTransaction>> {
  if (txIds.length === 0) return new Map();
  const res = await q.query<TxRow>(
    `SELECT ${TRANSACTION_COLUMNS} FROM ledger.transactions WHERE tx_id = ANY($1::text[])`,
    [[...txIds]],
  );
  return new Map(res.rows.map((r) => [r.tx_id, fromRow(r)]));
}
