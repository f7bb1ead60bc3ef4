/**
 * SQL of reconciliation: the ledger's payouts of a day, runs, breaks and resolutions. Breaks are inserted
 * with ON CONFLICT DO NOTHING on (rail, day, type, key), which is what makes a run idempotent and two
 * concurrent runs of one day safe: whichever inserts a break first opens it, the other finds it there.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import type { BreakType } from "../domain/break-types.js";
import type { LedgerPayout, ReconciliationBreak } from "../domain/reconciliation-matching.js";
import type { TxStatus } from "../domain/transaction-status.js";

interface PayoutRow {
  tx_id: string;
  amount: string;
  currency: string;
  status: TxStatus;
  provider_reference: string;
  rail_submitted_at: Date | null;
}

const payoutOf = (r: PayoutRow): LedgerPayout => ({
  txId: r.tx_id,
  amount: new Dec(r.amount),
  currency: r.currency,
  status: r.status,
  providerReference: r.provider_reference,
  railSubmittedAt: r.rail_submitted_at ?? undefined,
});

const PAYOUT_COLUMNS =
  "tx_id, amount::text AS amount, currency, status, provider_reference, rail_submitted_at";

/** Payouts whose rail acceptance the ledger noted in [from, to). */
export async function payoutsSubmittedBetween(q: Queryable, from: Date, to: Date): Promise<LedgerPayout[]> {
  const res = await q.query<PayoutRow>(
    `SELECT ${PAYOUT_COLUMNS} FROM ledger.transactions
      WHERE rail_submitted_at >= $1 AND rail_submitted_at < $2 AND amount IS NOT NULL`,
    [from, to],
  );
  return res.rows.map(payoutOf);
}

/** The payouts among `txIds` that the ledger executed (whatever day). */
export async function payoutsByIds(q: Queryable, txIds: readonly string[]): Promise<LedgerPayout[]> {
  if (txIds.length === 0) return [];
  const res = await q.query<PayoutRow>(
    `SELECT ${PAYOUT_COLUMNS} FROM ledger.transactions
      WHERE tx_id = ANY($1::text[]) AND amount IS NOT NULL AND execution_key IS NOT NULL`,
    [txIds],
  );
  return res.rows.map(payoutOf);
}

export type RunStatus = "RUNNING" | "COMPLETED" | "FAILED";

export interface ReconciliationRun {
  readonly runId: string;
  readonly rail: string;
  readonly day: string;
  readonly status: RunStatus;
  readonly startedBy: string;
  readonly railRecords: number;
  readonly ledgerPayouts: number;
  readonly breaksFound: number;
  readonly breaksOpened: number;
  readonly error: string;
  readonly startedAt: Date;
  readonly finishedAt: Date | undefined;
}

interface RunRow {
  run_id: string;
  rail: string;
  day: string;
  status: RunStatus;
  started_by: string;
  rail_records: number;
  ledger_payouts: number;
  breaks_found: number;
  breaks_opened: number;
  error: string;
  started_at: Date;
  finished_at: Date | null;
}

const RUN_COLUMNS = `run_id, rail, to_char(day, 'YYYY-MM-DD') AS day, status, started_by, rail_records,
  ledger_payouts, breaks_found, breaks_opened, error, started_at, finished_at`;

const runOf = (r: RunRow): ReconciliationRun => ({
  runId: r.run_id,
  rail: r.rail,
  day: r.day,
  status: r.status,
  startedBy: r.started_by,
  railRecords: r.rail_records,
  ledgerPayouts: r.ledger_payouts,
  breaksFound: r.breaks_found,
  breaksOpened: r.breaks_opened,
  error: r.error,
  startedAt: r.started_at,
  finishedAt: r.finished_at ?? undefined,
});

export async function insertRun(
  q: Queryable,
  run: { runId: string; rail: string; day: string; startedBy: string; startedAt: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO ledger.reconciliation_runs (run_id, rail, day, status, started_by, started_at)
     VALUES ($1, $2, $3, 'RUNNING', $4, $5)`,
    [run.runId, run.rail, run.day, run.startedBy, run.startedAt],
  );
}

export async function completeRun(
  q: Queryable,
  runId: string,
  counts: { railRecords: number; ledgerPayouts: number; breaksFound: number; breaksOpened: number },
  at: Date,
): Promise<ReconciliationRun> {
  const res = await q.query<RunRow>(
    `UPDATE ledger.reconciliation_runs
        SET status = 'COMPLETED', rail_records = $2, ledger_payouts = $3, breaks_found = $4,
            breaks_opened = $5, finished_at = $6
      WHERE run_id = $1 RETURNING ${RUN_COLUMNS}`,
    [runId, counts.railRecords, counts.ledgerPayouts, counts.breaksFound, counts.breaksOpened, at],
  );
  return runOf(res.rows[0] as RunRow);
}

export async function failRun(q: Queryable, runId: string, error: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE ledger.reconciliation_runs SET status = 'FAILED', error = $2, finished_at = $3 WHERE run_id = $1`,
    [runId, error.slice(0, 500), at],
  );
}

export async function findRun(q: Queryable, runId: string): Promise<ReconciliationRun | undefined> {
  const res = await q.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM ledger.reconciliation_runs WHERE run_id = $1`,
    [runId],
  );
  return res.rows[0] ? runOf(res.rows[0]) : undefined;
}

/** Whether a run of the day completed (the scheduler runs a day once). */
export async function hasCompletedRun(q: Queryable, rail: string, day: string): Promise<boolean> {
  const res = await q.query(
    `SELECT 1 FROM ledger.reconciliation_runs WHERE rail = $1 AND day = $2 AND status = 'COMPLETED' LIMIT 1`,
    [rail, day],
  );
  return res.rows.length > 0;
}

export interface RunFilter {
  readonly rail: string | undefined;
  readonly day: string | undefined;
  /** Runs started before this one (its run_id: ids sort by creation time). */
  readonly before: string | undefined;
  readonly limit: number;
}

/** Newest first. */
export async function listRuns(q: Queryable, f: RunFilter): Promise<ReconciliationRun[]> {
  const res = await q.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM ledger.reconciliation_runs
      WHERE ($1::text IS NULL OR rail = $1) AND ($2::date IS NULL OR day = $2)
        AND ($3::text IS NULL OR run_id < $3)
      ORDER BY run_id DESC LIMIT $4`,
    [f.rail ?? null, f.day ?? null, f.before ?? null, f.limit],
  );
  return res.rows.map(runOf);
}

/**
 * Stores the breaks a run found; those already there (open or resolved, from any run) are left as they
 * are. Answers how many were new.
 */
export async function openBreaks(
  q: Queryable,
  run: { runId: string; rail: string; day: string; at: Date },
  breaks: readonly (ReconciliationBreak & { breakId: string })[],
): Promise<number> {
  if (breaks.length === 0) return 0;
  const res = await q.query(
    `INSERT INTO ledger.reconciliation_breaks (break_id, rail, day, type, key, tx_id, rail_reference,
       ledger_amount, rail_amount, currency, ledger_status, rail_status, detail, run_id, opened_at)
     SELECT b.break_id, $1, $2, b.type, b.key, b.tx_id, b.rail_reference, b.ledger_amount::numeric,
            b.rail_amount, b.currency, b.ledger_status, b.rail_status, b.detail, $3, $4
       FROM jsonb_to_recordset($5::jsonb) AS b(break_id text, type text, key text, tx_id text,
            rail_reference text, ledger_amount text, rail_amount text, currency text, ledger_status text,
            rail_status text, detail text)
     ON CONFLICT (rail, day, type, key) DO NOTHING`,
    [
      run.rail,
      run.day,
      run.runId,
      run.at,
      JSON.stringify(
        breaks.map((b) => ({
          break_id: b.breakId,
          type: b.type,
          key: b.key,
          tx_id: b.txId,
          rail_reference: b.railReference,
          ledger_amount: b.ledgerAmount ?? null,
          rail_amount: b.railAmount ?? null,
          currency: b.currency,
          ledger_status: b.ledgerStatus,
          rail_status: b.railStatus,
          detail: b.detail,
        })),
      ),
    ],
  );
  return res.rowCount;
}

/** A break as stored: what matching found, where and when, and how an operator resolved it. */
export interface StoredBreak extends ReconciliationBreak {
  readonly breakId: string;
  readonly rail: string;
  readonly day: string;
  readonly runId: string;
  readonly openedAt: Date;
  readonly resolution: { note: string; resolvedBy: string; resolvedAt: Date } | undefined;
}

interface BreakRow {
  break_id: string;
  rail: string;
  day: string;
  type: BreakType;
  key: string;
  tx_id: string;
  rail_reference: string;
  ledger_amount: string | null;
  rail_amount: string | null;
  currency: string;
  ledger_status: string;
  rail_status: string;
  detail: string;
  run_id: string;
  opened_at: Date;
  note: string | null;
  resolved_by: string | null;
  resolved_at: Date | null;
}

const BREAK_COLUMNS = `b.break_id, b.rail, to_char(b.day, 'YYYY-MM-DD') AS day, b.type, b.key, b.tx_id,
  b.rail_reference, b.ledger_amount::text AS ledger_amount, b.rail_amount, b.currency, b.ledger_status,
  b.rail_status, b.detail, b.run_id, b.opened_at, r.note, r.resolved_by, r.resolved_at`;

const breakOf = (r: BreakRow): StoredBreak => ({
  breakId: r.break_id,
  rail: r.rail,
  day: r.day,
  type: r.type,
  key: r.key,
  txId: r.tx_id,
  railReference: r.rail_reference,
  ledgerAmount: r.ledger_amount === null ? undefined : toDecimalString(new Dec(r.ledger_amount)),
  railAmount: r.rail_amount ?? undefined,
  currency: r.currency,
  ledgerStatus: r.ledger_status,
  railStatus: r.rail_status,
  detail: r.detail,
  runId: r.run_id,
  openedAt: r.opened_at,
  resolution:
    r.resolved_at && r.note !== null && r.resolved_by !== null
      ? { note: r.note, resolvedBy: r.resolved_by, resolvedAt: r.resolved_at }
      : undefined,
});

export interface BreakFilter {
  readonly rail: string | undefined;
  readonly day: string | undefined;
  readonly type: BreakType | undefined;
  readonly runId: string | undefined;
  /** true: unresolved only; false: resolved only; undefined: both. */
  readonly open: boolean | undefined;
  /** Breaks opened before this one (ids sort by creation time). */
  readonly before: string | undefined;
  readonly limit: number;
}

/** Newest first. */
export async function listBreaks(q: Queryable, f: BreakFilter): Promise<StoredBreak[]> {
  const res = await q.query<BreakRow>(
    `SELECT ${BREAK_COLUMNS}
       FROM ledger.reconciliation_breaks b
       LEFT JOIN ledger.reconciliation_resolutions r ON r.break_id = b.break_id
      WHERE ($1::text IS NULL OR b.rail = $1) AND ($2::date IS NULL OR b.day = $2)
        AND ($3::text IS NULL OR b.type = $3) AND ($4::text IS NULL OR b.run_id = $4)
        AND ($5::boolean IS NULL OR (r.break_id IS NULL) = $5)
        AND ($6::text IS NULL OR b.break_id < $6)
      ORDER BY b.break_id DESC LIMIT $7`,
    [
      f.rail ?? null,
      f.day ?? null,
      f.type ?? null,
      f.runId ?? null,
      f.open ?? null,
      f.before ?? null,
      f.limit,
    ],
  );
  return res.rows.map(breakOf);
}

export async function findBreak(q: Queryable, breakId: string): Promise<StoredBreak | undefined> {
  const res = await q.query<BreakRow>(
    `SELECT ${BREAK_COLUMNS}
       FROM ledger.reconciliation_breaks b
       LEFT JOIN ledger.reconciliation_resolutions r ON r.break_id = b.break_id
      WHERE b.break_id = $1`,
    [breakId],
  );
  return res.rows[0] ? breakOf(res.rows[0]) : undefined;
}

/** Records the resolution; false when the break already had one (the first one stands). */
export async function insertResolution(
  q: Queryable,
  breakId: string,
  resolution: { note: string; resolvedBy: string; resolvedAt: Date },
): Promise<boolean> {
  const res = await q.query(
    `INSERT INTO ledger.reconciliation_resolutions (break_id, note, resolved_by, resolved_at)
     VALUES ($1, $2, $3, $4) ON CONFLICT (break_id) DO NOTHING`,
    [breakId, resolution.note, resolution.resolvedBy, resolution.resolvedAt],
  );
  return res.rowCount > 0;
}

/** Unresolved breaks by rail and type, for the open-breaks gauge. */
export async function openBreakCounts(
  q: Queryable,
): Promise<{ rail: string; type: string; count: number }[]> {
  const res = await q.query<{ rail: string; type: string; count: string }>(
    `SELECT b.rail, b.type, count(*) AS count
       FROM ledger.reconciliation_breaks b
      WHERE NOT EXISTS (SELECT 1 FROM ledger.reconciliation_resolutions r WHERE r.break_id = b.break_id)
      GROUP BY b.rail, b.type`,
  );
  return res.rows.map((r) => ({ rail: r.rail, type: r.type, count: Number(r.count) }));
}
