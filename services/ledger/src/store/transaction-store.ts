/**
 * SQL of ledger.transactions and ledger.status_history. The caller owns the database transaction.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import type { ListPosition } from "../domain/list-cursor.js";
import type { QuoteTerms } from "../domain/quote-terms.js";
import { isTxStatus, type TxStatus } from "../domain/transaction-status.js";

export interface StoredTransaction {
  readonly txId: string;
  readonly partnerId: string;
  readonly customerId: string;
  readonly status: TxStatus;
  readonly countryCode: string;
  readonly currency: string;
  /** payouts.common.v1.Destination in proto JSON form. */
  readonly destination: Record<string, unknown>;
  readonly amount: Dec | undefined;
  readonly partnerTransactionId: string;
  readonly partnerAppId: string;
  readonly walletIdentifier: string;
  readonly quote: QuoteTerms | undefined;
  readonly debitedUsd: Dec | undefined;
  readonly executionKey: string | undefined;
  readonly providerReference: string;
  readonly railSubmittedAt: Date | undefined;
  readonly railAttempts: number;
  readonly refundReason: string;
  readonly failureReason: string;
  readonly eventSequence: number;
  readonly pendingExpiresAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NewTransaction {
  readonly txId: string;
  readonly partnerId: string;
  readonly customerId: string;
  readonly countryCode: string;
  readonly currency: string;
  readonly destination: Record<string, unknown>;
  readonly amount: Dec | undefined;
  readonly partnerTransactionId: string;
  readonly partnerAppId: string;
  readonly walletIdentifier: string;
  readonly pendingExpiresAt: Date;
  readonly createdAt: Date;
}

export interface HistoryRow {
  readonly txId: string;
  readonly sequence: number;
  readonly from: TxStatus | undefined;
  readonly to: TxStatus;
  readonly reason: string;
  readonly at: Date;
}

export interface TxRow {
  tx_id: string;
  partner_id: string;
  customer_id: string;
  status: string;
  country_code: string;
  currency: string;
  destination: Record<string, unknown>;
  amount: string | null;
  partner_transaction_id: string;
  partner_app_id: string;
  wallet_identifier: string;
  quote_id: string | null;
  exchange_rate: string | null;
  amount_usd: string | null;
  percentage_fee: string | null;
  fixed_fee: string | null;
  quote_expires_at: Date | null;
  debited_usd: string | null;
  execution_key: string | null;
  provider_reference: string;
  rail_submitted_at: Date | null;
  rail_attempts: number;
  refund_reason: string;
  failure_reason: string;
  event_sequence: number;
  pending_expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

export const COLUMNS = `tx_id, partner_id, customer_id, status, country_code, currency, destination, amount,
  partner_transaction_id, partner_app_id, wallet_identifier, quote_id, exchange_rate, amount_usd,
  percentage_fee, fixed_fee, quote_expires_at, debited_usd, execution_key, provider_reference,
  rail_submitted_at, rail_attempts, refund_reason, failure_reason, event_sequence, pending_expires_at,
  created_at, updated_at`;

const dec = (v: string | null) => (v === null ? undefined : new Dec(v));
const text = (v: Dec | undefined) => (v === undefined ? null : toDecimalString(v));

export function fromRow(r: TxRow): StoredTransaction {
  if (!isTxStatus(r.status)) throw new Error(`unknown status ${r.status} on ${r.tx_id}`);
  const quote: QuoteTerms | undefined =
    r.quote_id === null
      ? undefined
      : {
          quoteId: r.quote_id,
          amount: new Dec(r.amount ?? "0"),
          currency: r.currency,
          exchangeRate: new Dec(r.exchange_rate ?? "0"),
          amountUsd: new Dec(r.amount_usd ?? "0"),
          percentageFee: new Dec(r.percentage_fee ?? "0"),
          fixedFee: new Dec(r.fixed_fee ?? "0"),
          expiresAt: new Date(r.quote_expires_at ?? 0),
        };
  return {
    txId: r.tx_id,
    partnerId: r.partner_id,
    customerId: r.customer_id,
    status: r.status,
    countryCode: r.country_code,
    currency: r.currency,
    destination: r.destination,
    amount: dec(r.amount),
    partnerTransactionId: r.partner_transaction_id,
    partnerAppId: r.partner_app_id,
    walletIdentifier: r.wallet_identifier,
    quote,
    debitedUsd: dec(r.debited_usd),
    executionKey: r.execution_key ?? undefined,
    providerReference: r.provider_reference,
    railSubmittedAt: r.rail_submitted_at ?? undefined,
    railAttempts: r.rail_attempts,
    refundReason: r.refund_reason,
    failureReason: r.failure_reason,
    eventSequence: r.event_sequence,
    pendingExpiresAt: r.pending_expires_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function insertTransaction(q: Queryable, t: NewTransaction): Promise<StoredTransaction> {
  const res = await q.query<TxRow>(
    `INSERT INTO ledger.transactions (tx_id, partner_id, customer_id, status, country_code, currency,
       destination, amount, partner_transaction_id, partner_app_id, wallet_identifier, event_sequence,
       pending_expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, 'PENDING', $4, $5, $6, $7, $8, $9, $10, 1, $11, $12, $12)
     RETURNING ${COLUMNS}`,
    [
      t.txId,
      t.partnerId,
      t.customerId,
      t.countryCode,
      t.currency,
      JSON.stringify(t.destination),
      text(t.amount),
      t.partnerTransactionId,
      t.partnerAppId,
      t.walletIdentifier,
      t.pendingExpiresAt,
      t.createdAt,
    ],
  );
  return fromRow(res.rows[0]!);
}

/**
 * One transaction; with `partnerId` only that partner's (another partner's id reads as absent). With
 * `forUpdate` the row stays locked until the caller's transaction ends: every state change takes this
 * lock first, then (when money moves) the partner's balance row, always in that order.
 */
export async function findTransaction(
  q: Queryable,
  txId: string,
  opts: { partnerId?: string | undefined; forUpdate?: boolean } = {},
): Promise<StoredTransaction | undefined> {
  const byPartner = opts.partnerId !== undefined && opts.partnerId !== "";
  const res = await q.query<TxRow>(
    `SELECT ${COLUMNS} FROM ledger.transactions
      WHERE tx_id = $1 ${byPartner ? "AND partner_id = $2" : ""} ${opts.forUpdate ? "FOR UPDATE" : ""}`,
    byPartner ? [txId, opts.partnerId] : [txId],
  );
  const row = res.rows[0];
  return row ? fromRow(row) : undefined;
}

export async function saveQuote(
  q: Queryable,
  txId: string,
  quote: QuoteTerms,
  now: Date,
): Promise<StoredTransaction> {
  const res = await q.query<TxRow>(
    `UPDATE ledger.transactions
        SET quote_id = $2, amount = $3, exchange_rate = $4, amount_usd = $5, percentage_fee = $6,
            fixed_fee = $7, quote_expires_at = $8, updated_at = $9
      WHERE tx_id = $1 AND status = 'PENDING'
      RETURNING ${COLUMNS}`,
    [
      txId,
      quote.quoteId,
      toDecimalString(quote.amount),
      toDecimalString(quote.exchangeRate),
      toDecimalString(quote.amountUsd),
      toDecimalString(quote.percentageFee),
      toDecimalString(quote.fixedFee),
      quote.expiresAt,
      now,
    ],
  );
  return exactlyOne(res.rows, `saveQuote ${txId}`);
}

/** Extra columns a status change may set at the same time. */
export interface StatusChanges {
  readonly debitedUsd?: Dec;
  readonly executionKey?: string;
  readonly refundReason?: string;
  readonly failureReason?: string;
  readonly providerReference?: string;
  readonly nextRailAttemptAt?: Date;
}

/**
 * Moves a transaction from `from` (at `fromSequence`) to `to`. The WHERE clause re-asserts the state the
 * caller read under its row lock; a mismatch is a bug and aborts the database transaction.
 */
export async function updateStatus(
  q: Queryable,
  tx: Pick<StoredTransaction, "txId" | "status" | "eventSequence">,
  to: TxStatus,
  now: Date,
  changes: StatusChanges = {},
): Promise<StoredTransaction> {
  const res = await q.query<TxRow>(
    `UPDATE ledger.transactions
        SET status = $4, event_sequence = event_sequence + 1, updated_at = $5,
            debited_usd = COALESCE($6, debited_usd),
            execution_key = COALESCE($7, execution_key),
            refund_reason = COALESCE($8, refund_reason),
            failure_reason = COALESCE($9, failure_reason),
            provider_reference = COALESCE($10, provider_reference),
            next_rail_attempt_at = COALESCE($11, next_rail_attempt_at)
      WHERE tx_id = $1 AND status = $2 AND event_sequence = $3
      RETURNING ${COLUMNS}`,
    [
      tx.txId,
      tx.status,
      tx.eventSequence,
      to,
      now,
      text(changes.debitedUsd),
      changes.executionKey ?? null,
      changes.refundReason ?? null,
      changes.failureReason ?? null,
      changes.providerReference ?? null,
      changes.nextRailAttemptAt ?? null,
    ],
  );
  return exactlyOne(res.rows, `updateStatus ${tx.txId} ${tx.status}->${to}`);
}

export async function insertHistory(q: Queryable, h: HistoryRow): Promise<void> {
  await q.query(
    `INSERT INTO ledger.status_history (tx_id, sequence, from_status, to_status, reason, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [h.txId, h.sequence, h.from ?? null, h.to, h.reason, h.at],
  );
}

export async function listHistory(q: Queryable, txId: string): Promise<HistoryRow[]> {
  const res = await q.query<{
    tx_id: string;
    sequence: number;
    from_status: string | null;
    to_status: string;
    reason: string;
    created_at: Date;
  }>(
    `SELECT tx_id, sequence, from_status, to_status, reason, created_at
       FROM ledger.status_history WHERE tx_id = $1 ORDER BY sequence`,
    [txId],
  );
  return res.rows.map((r) => ({
    txId: r.tx_id,
    sequence: r.sequence,
    from: r.from_status !== null && isTxStatus(r.from_status) ? r.from_status : undefined,
    to: isTxStatus(r.to_status) ? r.to_status : "PENDING",
    reason: r.reason,
    at: r.created_at,
  }));
}

export interface ListFilter {
  readonly partnerId: string;
  readonly status: TxStatus | undefined;
  readonly partnerTransactionId: string | undefined;
  readonly createdFrom: Date | undefined;
  readonly createdTo: Date | undefined;
  readonly after: ListPosition | undefined;
  readonly limit: number;
}

/** Newest first, by (created_at, tx_id) descending; `after` is the last position of the previous page. */
export async function listTransactions(q: Queryable, f: ListFilter): Promise<StoredTransaction[]> {
  const where = ["partner_id = $1"];
  const params: unknown[] = [f.partnerId];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replaceAll("?", `$${params.length}`));
  };
  if (f.status) add("status = ?", f.status);
  if (f.partnerTransactionId) add("partner_transaction_id = ?", f.partnerTransactionId);
  if (f.createdFrom) add("created_at >= ?", f.createdFrom);
  if (f.createdTo) add("created_at <= ?", f.createdTo);
  if (f.after) {
    params.push(f.after.createdAt, f.after.txId);
    where.push(`(created_at, tx_id) < ($${params.length - 1}, $${params.length})`);
  }
  params.push(f.limit);
  const res = await q.query<TxRow>(
    `SELECT ${COLUMNS} FROM ledger.transactions WHERE ${where.join(" AND ")}
      ORDER BY created_at DESC, tx_id DESC LIMIT $${params.length}`,
    params,
  );
  return res.rows.map(fromRow);
}

/** PENDING transactions past their TTL, oldest first. */
export async function duePendingExpiries(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const res = await q.query<{ tx_id: string }>(
    `SELECT tx_id FROM ledger.transactions
      WHERE status = 'PENDING' AND pending_expires_at <= $1
      ORDER BY pending_expires_at LIMIT $2`,
    [now, limit],
  );
  return res.rows.map((r) => r.tx_id);
}

/** PROCESSING transactions the rail has not acknowledged and whose next attempt is due. */
export async function dueRailSubmissions(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const res = await q.query<{ tx_id: string }>(
    `SELECT tx_id FROM ledger.transactions
      WHERE status = 'PROCESSING' AND rail_submitted_at IS NULL AND next_rail_attempt_at <= $1
      ORDER BY next_rail_attempt_at LIMIT $2`,
    [now, limit],
  );
  return res.rows.map((r) => r.tx_id);
}

/**
 * PROCESSING transactions the rail never acknowledged that entered PROCESSING at or before `enteredBefore`,
 * oldest first. A PROCESSING row's updated_at is the moment it entered PROCESSING: the rail bookkeeping
 * (markRailSubmitted, markRailAttemptFailed) deliberately leaves it alone.
 */
export async function overdueRailSubmissions(
  q: Queryable,
  enteredBefore: Date,
  limit: number,
): Promise<string[]> {
  const res = await q.query<{ tx_id: string }>(
    `SELECT tx_id FROM ledger.transactions
      WHERE status = 'PROCESSING' AND rail_submitted_at IS NULL AND updated_at <= $1
      ORDER BY updated_at, tx_id LIMIT $2`,
    [enteredBefore, limit],
  );
  return res.rows.map((r) => r.tx_id);
}

export async function markRailSubmitted(
  q: Queryable,
  txId: string,
  providerReference: string,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE ledger.transactions
        SET rail_submitted_at = COALESCE(rail_submitted_at, $3),
            provider_reference = CASE WHEN provider_reference = '' THEN $2 ELSE provider_reference END,
            rail_attempts = rail_attempts + 1
      WHERE tx_id = $1`,
    [txId, providerReference, now],
  );
}

export async function markRailAttemptFailed(q: Queryable, txId: string, nextAttemptAt: Date): Promise<void> {
  await q.query(
    `UPDATE ledger.transactions
        SET rail_attempts = rail_attempts + 1, next_rail_attempt_at = $2
      WHERE tx_id = $1 AND rail_submitted_at IS NULL`,
    [txId, nextAttemptAt],
  );
}

function exactlyOne(rows: TxRow[], what: string): StoredTransaction {
  if (rows.length !== 1) throw new Error(`${what}: expected one row, got ${rows.length}`);
  return fromRow(rows[0]!);
}
