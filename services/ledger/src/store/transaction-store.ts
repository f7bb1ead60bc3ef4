/**
 * SQL of ledger.transactions and ledger.status_history. The caller owns the database transaction.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import type { ListPosition } from "../domain/list-cursor.js";
import type { QuoteTerms } from "../domain/quote-terms.js";
import { isTxStatus, type TxStatus } from "../domain/transaction-status.js";
import type { Statement } from "./statement.js";

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
  /** The batch and item this transaction pays, for a bulk payout's item; undefined otherwise. */
  readonly batchItem: BatchItemKey | undefined;
}

/** A batch item's identity: its batch and its partner reference in it. */
export interface BatchItemKey {
  readonly batchId: string;
  readonly itemRef: string;
}

/** A transaction to store: the fields known when it is created (its batch item only for a bulk payout's). */
export type NewTransaction = Pick<
  StoredTransaction,
  | "txId"
  | "partnerId"
  | "customerId"
  | "countryCode"
  | "currency"
  | "destination"
  | "amount"
  | "partnerTransactionId"
  | "partnerAppId"
  | "walletIdentifier"
  | "pendingExpiresAt"
  | "createdAt"
> & { readonly batchItem?: BatchItemKey | undefined };

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
  batch_id: string | null;
  item_ref: string | null;
}

/** Every column of a transaction row, in the order TxRow maps them. */
export const TRANSACTION_COLUMNS = `tx_id, partner_id, customer_id, status, country_code, currency, destination, amount,
  partner_transaction_id, partner_app_id, wallet_identifier, quote_id, exchange_rate, amount_usd,
  percentage_fee, fixed_fee, quote_expires_at, debited_usd, execution_key, provider_reference,
  rail_submitted_at, rail_attempts, refund_reason, failure_reason, event_sequence, pending_expires_at,
  created_at, updated_at, batch_id, item_ref`;
const COLUMNS = TRANSACTION_COLUMNS;

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
    batchItem:
      r.batch_id === null || r.item_ref === null ? undefined : { batchId: r.batch_id, itemRef: r.item_ref },
  };
}

/**
 * The INSERT of a new PENDING transaction (with its first quote, when the partner gave the amount at
 * lookup) as the part `name` of `st`, returning the row.
 */
export function addNewTransaction(
  st: Statement,
  t: NewTransaction,
  quote: QuoteTerms | undefined,
  name = "tx_new",
): string {
  const v = (value: unknown) => st.p(value);
  return st.with(
    name,
    `INSERT INTO ledger.transactions (tx_id, partner_id, customer_id, status, country_code, currency,
       destination, amount, partner_transaction_id, partner_app_id, wallet_identifier, quote_id,
       exchange_rate, amount_usd, percentage_fee, fixed_fee, quote_expires_at, event_sequence,
       pending_expires_at, created_at, updated_at, batch_id, item_ref)
     VALUES (${v(t.txId)}, ${v(t.partnerId)}, ${v(t.customerId)}, 'PENDING', ${v(t.countryCode)},
       ${v(t.currency)}, ${v(JSON.stringify(t.destination))}, ${v(text(quote?.amount ?? t.amount))},
       ${v(t.partnerTransactionId)}, ${v(t.partnerAppId)}, ${v(t.walletIdentifier)}, ${v(quote?.quoteId ?? null)},
       ${v(text(quote?.exchangeRate))}, ${v(text(quote?.amountUsd))}, ${v(text(quote?.percentageFee))},
       ${v(text(quote?.fixedFee))}, ${v(quote?.expiresAt ?? null)}, 1, ${v(t.pendingExpiresAt)},
       ${v(t.createdAt)}, ${v(t.createdAt)}, ${v(t.batchItem?.batchId ?? null)},
       ${v(t.batchItem?.itemRef ?? null)})
     RETURNING tx_id`,
  );
}

/**
 * The row addNewTransaction writes, as read back: the values its outbox event and its answer are built from
 * (every one is computed before the statement, so the INSERT returns only its key).
 */
export function newTransactionState(t: NewTransaction, quote: QuoteTerms | undefined): StoredTransaction {
  return {
    txId: t.txId,
    partnerId: t.partnerId,
    customerId: t.customerId,
    status: "PENDING",
    countryCode: t.countryCode,
    currency: t.currency,
    destination: t.destination,
    amount: quote?.amount ?? t.amount,
    partnerTransactionId: t.partnerTransactionId,
    partnerAppId: t.partnerAppId,
    walletIdentifier: t.walletIdentifier,
    quote,
    debitedUsd: undefined,
    executionKey: undefined,
    providerReference: "",
    railSubmittedAt: undefined,
    railAttempts: 0,
    refundReason: "",
    failureReason: "",
    eventSequence: 1,
    pendingExpiresAt: t.pendingExpiresAt,
    createdAt: t.createdAt,
    updatedAt: t.createdAt,
    batchItem: t.batchItem,
  };
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

/**
 * Stores a quote on a PENDING transaction still at the status sequence the caller read (`seen`); false
 * when the row has moved on since (the caller reads it again). A newer quote replaces an older one.
 */
export async function saveQuote(
  q: Queryable,
  seen: Pick<StoredTransaction, "txId" | "eventSequence">,
  quote: QuoteTerms,
  now: Date,
): Promise<boolean> {
  const res = await q.query(
    `UPDATE ledger.transactions
        SET quote_id = $2, amount = $3, exchange_rate = $4, amount_usd = $5, percentage_fee = $6,
            fixed_fee = $7, quote_expires_at = $8, updated_at = $9
      WHERE tx_id = $1 AND status = 'PENDING' AND event_sequence = $10`,
    [
      seen.txId,
      quote.quoteId,
      toDecimalString(quote.amount),
      toDecimalString(quote.exchangeRate),
      toDecimalString(quote.amountUsd),
      toDecimalString(quote.percentageFee),
      toDecimalString(quote.fixedFee),
      quote.expiresAt,
      now,
      seen.eventSequence,
    ],
  );
  return res.rowCount === 1;
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
 * The UPDATE moving a transaction from `from` (at `fromSequence`) to `to`, as the part `name` of `st`,
 * returning the row. The WHERE clause re-asserts the state the caller read under its row lock: the caller
 * checks that exactly one row came back (a mismatch is a bug and must abort the database transaction).
 */
export function addStatusUpdate(
  st: Statement,
  tx: Pick<StoredTransaction, "txId" | "status" | "eventSequence">,
  to: TxStatus,
  now: Date,
  changes: StatusChanges = {},
  name = "tx_update",
): string {
  const v = (value: unknown) => st.p(value);
  return st.with(
    name,
    `UPDATE ledger.transactions
        SET status = ${v(to)}, event_sequence = event_sequence + 1, updated_at = ${v(now)},
            debited_usd = COALESCE(${v(text(changes.debitedUsd))}, debited_usd),
            execution_key = COALESCE(${v(changes.executionKey ?? null)}, execution_key),
            refund_reason = COALESCE(${v(changes.refundReason ?? null)}, refund_reason),
            failure_reason = COALESCE(${v(changes.failureReason ?? null)}, failure_reason),
            provider_reference = COALESCE(${v(changes.providerReference ?? null)}, provider_reference),
            next_rail_attempt_at = COALESCE(${v(changes.nextRailAttemptAt ?? null)}, next_rail_attempt_at)
      WHERE tx_id = ${v(tx.txId)} AND status = ${v(tx.status)} AND event_sequence = ${v(tx.eventSequence)}
      RETURNING ${COLUMNS}`,
  );
}

/** The row addStatusUpdate writes, as read back: the same SET, applied to the row read under its lock. */
export function statusChanged(
  tx: StoredTransaction,
  to: TxStatus,
  now: Date,
  changes: StatusChanges = {},
): StoredTransaction {
  return {
    ...tx,
    status: to,
    eventSequence: tx.eventSequence + 1,
    updatedAt: now,
    debitedUsd: changes.debitedUsd ?? tx.debitedUsd,
    executionKey: changes.executionKey ?? tx.executionKey,
    refundReason: changes.refundReason ?? tx.refundReason,
    failureReason: changes.failureReason ?? tx.failureReason,
    providerReference: changes.providerReference ?? tx.providerReference,
  };
}

/** The one row a write set's part returned (see addStatusUpdate). */
export function exactlyOneTransaction(rows: readonly TxRow[], what: string): StoredTransaction {
  return exactlyOne(rows, what);
}

/** The INSERT of one status history row, as a part of `st`. */
export function addHistory(st: Statement, h: HistoryRow, name = "history_new"): string {
  const v = (value: unknown) => st.p(value);
  return st.with(
    name,
    `INSERT INTO ledger.status_history (tx_id, sequence, from_status, to_status, reason, created_at)
     VALUES (${v(h.txId)}, ${v(h.sequence)}, ${v(h.from ?? null)}, ${v(h.to)}, ${v(h.reason)}, ${v(h.at)})`,
  );
}

/** What a transaction list may be narrowed by: every filter given must hold. */
export interface TransactionFilter {
  readonly txId?: string | undefined;
  readonly partnerId?: string | undefined;
  readonly partnerTransactionId?: string | undefined;
  readonly status?: TxStatus | undefined;
  readonly countryCode?: string | undefined;
  readonly currency?: string | undefined;
  readonly createdFrom?: Date | undefined;
  readonly createdTo?: Date | undefined;
}

/** Each filter's condition, its `?` standing for the value given. */
const FILTER_CLAUSES: Readonly<Record<keyof TransactionFilter, string>> = {
  txId: "tx_id = ?",
  partnerId: "partner_id = ?",
  // Spelled out so the planner can use the partial indexes on references (WHERE partner_transaction_id <> '').
  partnerTransactionId: "partner_transaction_id = ? AND partner_transaction_id <> ''",
  status: "status = ?",
  countryCode: "country_code = ?",
  currency: "currency = ?",
  createdFrom: "created_at >= ?",
  createdTo: "created_at <= ?",
};

/** A page of a list: after the last position of the previous page, at most `limit`. */
export interface ListPage {
  readonly after: ListPosition | undefined;
  readonly limit: number;
}

/** A partner's own list: its transactions only. */
export interface ListFilter extends TransactionFilter, ListPage {
  readonly partnerId: string;
}

/** Newest first, by (created_at, tx_id) descending; `after` is the last position of the previous page. */
export async function listTransactions(q: Queryable, f: ListFilter): Promise<StoredTransaction[]> {
  // No partner named is no transaction (not every partner's: that is the operators' search).
  return f.partnerId ? listNewestFirst(q, f) : [];
}

/**
 * The transactions that meet every filter given (an empty string or undefined is no filter), newest first
 * by (created_at, tx_id) descending, after the position `after` (the last of the previous page), at most
 * `limit`.
 */
export async function listNewestFirst(
  q: Queryable,
  f: TransactionFilter & ListPage,
): Promise<StoredTransaction[]> {
  const { after, limit } = f;
  const where: string[] = [];
  const params: unknown[] = [];
  for (const [key, clause] of Object.entries(FILTER_CLAUSES)) {
    const value = f[key as keyof TransactionFilter];
    if (!value) continue;
    params.push(value);
    where.push(clause.replaceAll("?", `$${params.length}`));
  }
  if (after) {
    params.push(after.createdAt, after.txId);
    where.push(`(created_at, tx_id) < ($${params.length - 1}, $${params.length})`);
  }
  params.push(limit);
  const res = await q.query<TxRow>(
    `SELECT ${COLUMNS} FROM ledger.transactions
      ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY created_at DESC, tx_id DESC LIMIT $${params.length}`,
    params,
  );
  return res.rows.map(fromRow);
}

/**
 * PENDING transactions past their TTL, oldest first; never the item of a funded batch, which its batch pays
 * whatever the time (expirePending checks that again under the batch's lock).
 */
export async function duePendingExpiries(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const res = await q.query<{ tx_id: string }>(
    `SELECT t.tx_id FROM ledger.transactions t
      WHERE t.status = 'PENDING' AND t.pending_expires_at <= $1
        AND NOT EXISTS (SELECT 1 FROM ledger.batches b WHERE b.batch_id = t.batch_id AND b.funded_at IS NOT NULL)
      ORDER BY t.pending_expires_at LIMIT $2`,
    [now, limit],
  );
  return res.rows.map((r) => r.tx_id);
}

function exactlyOne(rows: readonly TxRow[], what: string): StoredTransaction {
  if (rows.length !== 1) throw new Error(`${what}: expected one row, got ${rows.length}`);
  return fromRow(rows[0]!);
}
