/** SQL of rail.submissions. The caller owns the transaction. */
import type { Queryable } from "@payouts/platform/database/database";
import type { SubmitPayoutRequest } from "@payouts/proto/payouts/rail/v1/rail_pb";
import type { RailOutcome } from "../domain/sandbox-outcome.js";

/** A payout as the rail was asked to pay it (SubmitPayout), with what the rail made of it. */
export interface Submission extends Readonly<Omit<SubmitPayoutRequest, "$typeName" | "$unknown">> {
  readonly providerReference: string;
  readonly outcome: RailOutcome;
  readonly reason: string;
  readonly nextCallbackAt: Date | undefined;
  readonly callbackAttempts: number;
  readonly deliveredAt: Date | undefined;
  /** Set when the payout was cancelled before the rail accepted it: never paid, never reported. */
  readonly cancelledAt: Date | undefined;
}

interface Row {
  tx_id: string;
  provider_reference: string;
  country_code: string;
  currency: string;
  amount: string;
  destination_type: string;
  payment_destination: string;
  payment_destination_code: string;
  outcome: RailOutcome;
  reason: string;
  next_callback_at: Date | null;
  callback_attempts: number;
  delivered_at: Date | null;
  cancelled_at: Date | null;
}

const COLUMNS = `tx_id, provider_reference, country_code, currency, amount, destination_type,
  payment_destination, payment_destination_code, outcome, reason, next_callback_at, callback_attempts,
  delivered_at, cancelled_at`;

function fromRow(r: Row): Submission {
  return {
    txId: r.tx_id,
    providerReference: r.provider_reference,
    countryCode: r.country_code,
    currency: r.currency,
    amount: r.amount,
    destinationType: r.destination_type,
    paymentDestination: r.payment_destination,
    paymentDestinationCode: r.payment_destination_code,
    outcome: r.outcome,
    reason: r.reason,
    nextCallbackAt: r.next_callback_at ?? undefined,
    callbackAttempts: r.callback_attempts,
    deliveredAt: r.delivered_at ?? undefined,
    cancelledAt: r.cancelled_at ?? undefined,
  };
}

/** Stores a new submission; an existing one for the same tx_id is kept as it was and returned. */
export async function insertSubmission(
  q: Queryable,
  s: Omit<Submission, "callbackAttempts" | "deliveredAt" | "cancelledAt">,
  now: Date,
): Promise<Submission> {
  const inserted = await q.query<Row>(
    `INSERT INTO rail.submissions (tx_id, provider_reference, country_code, currency, amount,
       destination_type, payment_destination, payment_destination_code, outcome, reason, next_callback_at,
       created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (tx_id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      s.txId,
      s.providerReference,
      s.countryCode,
      s.currency,
      s.amount,
      s.destinationType,
      s.paymentDestination,
      s.paymentDestinationCode,
      s.outcome,
      s.reason,
      s.nextCallbackAt ?? null,
      now,
    ],
  );
  return insertedOrExisting(q, s.txId, inserted.rows);
}

// The row an INSERT … ON CONFLICT DO NOTHING RETURNING wrote, else (a submission for that tx_id existed) the
// existing one, read by a statement of its own: a fresh snapshot sees a row that a concurrent submission
// committed while the INSERT waited for it.
async function insertedOrExisting(q: Queryable, txId: string, rows: readonly Row[]): Promise<Submission> {
  if (rows[0]) return fromRow(rows[0]);
  const stored = await findSubmission(q, txId);
  if (!stored) throw new Error(`submission ${txId} vanished`);
  return stored;
}

export async function findSubmission(q: Queryable, txId: string): Promise<Submission | undefined> {
  const res = await q.query<Row>(`SELECT ${COLUMNS} FROM rail.submissions WHERE tx_id = $1`, [txId]);
  return res.rows[0] ? fromRow(res.rows[0]) : undefined;
}

/**
 * Records that `txId` must never be paid: a cancelled row when the rail has none yet. An existing row is
 * kept as it was (a payout the rail accepted is not withdrawn) and returned.
 */
export async function insertCancellation(
  q: Queryable,
  txId: string,
  providerReference: string,
  reason: string,
  now: Date,
): Promise<Submission> {
  const inserted = await q.query<Row>(
    `INSERT INTO rail.submissions (tx_id, provider_reference, country_code, currency, amount,
       destination_type, payment_destination, payment_destination_code, outcome, reason, next_callback_at,
       created_at, cancelled_at)
     VALUES ($1, $2, '', '', '', '', '', '', 'FAILED', $3, NULL, $4, $4)
     ON CONFLICT (tx_id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [txId, providerReference, reason, now],
  );
  return insertedOrExisting(q, txId, inserted.rows);
}

/** An operator's verdict: replaces the planned outcome (while undelivered) and makes the callback due now. */
export async function forceOutcome(
  q: Queryable,
  txId: string,
  outcome: RailOutcome,
  reason: string,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE rail.submissions
        SET outcome = $2, reason = $3, next_callback_at = $4
      WHERE tx_id = $1 AND delivered_at IS NULL AND cancelled_at IS NULL`,
    [txId, outcome, reason, now],
  );
}

/**
 * Claims up to `limit` due callbacks for `claimMs` (pushing their due time forward), so concurrent
 * workers or replicas never send the same callback at the same moment.
 */
export async function claimDueCallbacks(
  q: Queryable,
  now: Date,
  claimMs: number,
  limit: number,
  txId?: string,
): Promise<Submission[]> {
  const res = await q.query<Row>(
    `UPDATE rail.submissions SET next_callback_at = $2
      WHERE tx_id IN (
        SELECT tx_id FROM rail.submissions
         WHERE delivered_at IS NULL AND next_callback_at <= $1 ${txId ? "AND tx_id = $4" : ""}
         ORDER BY next_callback_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING ${COLUMNS}`,
    txId
      ? [now, new Date(now.getTime() + claimMs), limit, txId]
      : [now, new Date(now.getTime() + claimMs), limit],
  );
  return res.rows.map(fromRow);
}

export async function markDelivered(q: Queryable, txId: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE rail.submissions SET delivered_at = $2, callback_attempts = callback_attempts + 1,
            last_callback_error = ''
      WHERE tx_id = $1`,
    [txId, now],
  );
}

export async function markCallbackFailed(
  q: Queryable,
  txId: string,
  error: string,
  retryAt: Date,
): Promise<void> {
  await q.query(
    `UPDATE rail.submissions SET callback_attempts = callback_attempts + 1, last_callback_error = $2,
            next_callback_at = $3
      WHERE tx_id = $1 AND delivered_at IS NULL`,
    [txId, error.slice(0, 500), retryAt],
  );
}

/** Makes a delivered callback due again (an operator repeating the same verdict). */
export async function reopenCallback(q: Queryable, txId: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE rail.submissions SET delivered_at = NULL, next_callback_at = $2
      WHERE tx_id = $1 AND cancelled_at IS NULL`,
    [txId, now],
  );
}
