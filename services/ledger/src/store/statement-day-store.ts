/**
 * SQL of daily statements: each partner's time zone, the closed days (frozen summary and membership) and
 * the entries of a day, closed or open, in feed order (xid, entry_id) below the snapshot watermark.
 *
 * A day's entries ("scope"):
 *   closed — the entries its close recorded in `statement_day_entries`;
 *   revision — a later revision of a closed day: its entries in `statement_revision_entries` (the entries
 *            of the revision it follows, then its adjustment's entry, whose transaction is newer);
 *   open   — entries no closed day holds, below the watermark, with `lower <= created_at < end`, where
 *            `lower` is -infinity for the first open day after the last closed one (entries that became
 *            visible after their own day closed post there) and the day's start otherwise.
 *
 * "No closed day holds it" is bounded by the last closed day L: its close took every entry with
 * xid < L's watermark and created_at < L's end, so an entry still open has xid >= that watermark or
 * created_at >= that end — two index ranges, never the partner's whole history.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import { parseScaled } from "../domain/scaled-amount.js";
import type { DaySummary } from "../domain/statement-days.js";
import type { FeedPosition, ScaledEntry } from "../domain/statement-lines.js";
import { type ScaledEntryRow, scaledEntryColumns, toScaledEntry } from "./statement-store.js";

/** What the last closed day's close took: every entry below `watermark` written before `end`. */
export interface ClosedBound {
  readonly watermark: bigint;
  readonly end: Date;
}

export type DayScope =
  | { readonly kind: "closed"; readonly statementId: string }
  | { readonly kind: "revision"; readonly statementId: string }
  | {
      readonly kind: "open";
      readonly partnerId: string;
      readonly after: ClosedBound | undefined;
      readonly lower: Date | undefined;
      readonly end: Date;
    };

export interface ClosedDay {
  readonly statementId: string;
  readonly partnerId: string;
  readonly date: string;
  readonly revision: number;
  /** The statement id of the original day a later revision restates; undefined on revision 1. */
  readonly restates: string | undefined;
  readonly timeZone: string;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  readonly summary: DaySummary;
  /** The feed watermark its membership was taken below. */
  readonly watermark: bigint;
  readonly closedAt: Date;
}

interface ClosedDayRow {
  readonly statement_id: string;
  readonly partner_id: string;
  readonly day: string;
  readonly revision: number;
  readonly restates: string | null;
  readonly time_zone: string;
  readonly period_start: Date;
  readonly period_end: Date;
  readonly opening_balance: string;
  readonly closing_balance: string;
  readonly line_count: number;
  readonly total_debits: string;
  readonly total_credits: string;
  readonly sha256: string;
  readonly watermark: string;
  readonly closed_at: Date;
}

const DAY_COLUMNS = `statement_id, partner_id, to_char(day, 'YYYY-MM-DD') AS day, revision, restates, time_zone,
  period_start, period_end, opening_balance::text AS opening_balance, closing_balance::text AS closing_balance,
  line_count, total_debits::text AS total_debits, total_credits::text AS total_credits, sha256,
  watermark::text AS watermark, closed_at`;

function toClosedDay(r: ClosedDayRow): ClosedDay {
  return {
    statementId: r.statement_id,
    partnerId: r.partner_id,
    date: r.day,
    revision: r.revision,
    restates: r.restates ?? undefined,
    timeZone: r.time_zone,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    summary: {
      openingBalance: new Dec(r.opening_balance),
      closingBalance: new Dec(r.closing_balance),
      lineCount: r.line_count,
      totalDebits: new Dec(r.total_debits),
      totalCredits: new Dec(r.total_credits),
      sha256: r.sha256,
    },
    watermark: BigInt(r.watermark),
    closedAt: r.closed_at,
  };
}

export async function timeZoneOf(q: Queryable, partnerId: string): Promise<string | undefined> {
  const res = await q.query<{ time_zone: string }>(
    `SELECT time_zone FROM ledger.statement_settings WHERE partner_id = $1`,
    [partnerId],
  );
  return res.rows[0]?.time_zone;
}

export async function putTimeZone(
  q: Queryable,
  partnerId: string,
  timeZone: string,
  at: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO ledger.statement_settings (partner_id, time_zone, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (partner_id) DO UPDATE SET time_zone = EXCLUDED.time_zone, updated_at = EXCLUDED.updated_at`,
    [partnerId, timeZone, at],
  );
}

/**
 * The original (revision 1) of each closed day of the partner from `from` to `to` (inclusive), by date:
 * the series whose closing balances chain day to day. Later revisions are read by `dayRevision`.
 */
export async function closedDays(
  q: Queryable,
  partnerId: string,
  from: string,
  to: string,
): Promise<ClosedDay[]> {
  const res = await q.query<ClosedDayRow>(
    `SELECT ${DAY_COLUMNS} FROM ledger.statement_days
      WHERE partner_id = $1 AND day BETWEEN $2::date AND $3::date AND revision = 1
      ORDER BY day`,
    [partnerId, from, to],
  );
  return res.rows.map(toClosedDay);
}

/** The partner's first or last closed day (its original), if any. */
export async function edgeClosedDay(
  q: Queryable,
  partnerId: string,
  edge: "first" | "last",
): Promise<ClosedDay | undefined> {
  const order = edge === "first" ? "day ASC" : "day DESC";
  const res = await q.query<ClosedDayRow>(
    `SELECT ${DAY_COLUMNS} FROM ledger.statement_days WHERE partner_id = $1 AND revision = 1
      ORDER BY ${order} LIMIT 1`,
    [partnerId],
  );
  const row = res.rows[0];
  return row ? toClosedDay(row) : undefined;
}

/** Revision `revision` of the partner's closed day `date`, or its latest revision when `revision` is "latest". */
export async function dayRevision(
  q: Queryable,
  partnerId: string,
  date: string,
  revision: number | "latest",
): Promise<ClosedDay | undefined> {
  const res = await q.query<ClosedDayRow>(
    `SELECT ${DAY_COLUMNS} FROM ledger.statement_days
      WHERE partner_id = $1 AND day = $2::date AND ($3::int IS NULL OR revision = $3::int)
      ORDER BY revision DESC LIMIT 1`,
    [partnerId, date, revision === "latest" ? null : revision],
  );
  const row = res.rows[0];
  return row ? toClosedDay(row) : undefined;
}

/**
 * The membership of a new revision: the entries of the revision it follows (`previous`) and `entryId`
 * (its adjustment's balance entry). Written before the revision's row, in the same transaction.
 */
export async function claimRevisionEntries(
  q: Queryable,
  statementId: string,
  previous: ClosedDay,
  entryId: bigint,
): Promise<void> {
  const source =
    previous.revision === 1 ? "ledger.statement_day_entries" : "ledger.statement_revision_entries";
  await q.query(
    `INSERT INTO ledger.statement_revision_entries (statement_id, entry_id)
     SELECT $1, entry_id FROM ${source} WHERE statement_id = $2
     UNION ALL SELECT $1, $3::bigint`,
    [statementId, previous.statementId, entryId.toString()],
  );
}

/** The balance entry a movement wrote. */
export async function balanceEntryOf(q: Queryable, movementId: string): Promise<bigint> {
  const res = await q.query<{ entry_id: string }>(
    `SELECT entry_id::text AS entry_id FROM ledger.entries WHERE movement_id = $1 AND kind = 'balance'`,
    [movementId],
  );
  const row = res.rows[0];
  if (!row) throw new Error(`movement ${movementId} has no balance entry`);
  return BigInt(row.entry_id);
}

/** Partners whose balance account exists (those that may have entries to close). */
export async function partnersWithBalance(q: Queryable): Promise<string[]> {
  const res = await q.query<{ partner_id: string }>(
    `SELECT partner_id FROM ledger.accounts WHERE kind = 'balance' ORDER BY partner_id`,
  );
  return res.rows.map((r) => r.partner_id);
}

/** The earliest created_at of the partner's visible entries (before any day of it closed). */
export async function firstEntryAt(q: Queryable, partnerId: string): Promise<Date | undefined> {
  const open = openEntries(partnerId, undefined, 1);
  const res = await q.query<{ at: Date | null }>(
    `SELECT min(e.created_at) AS at FROM ledger.entries e WHERE ${open.where}`,
    open.params,
  );
  return res.rows[0]?.at ?? undefined;
}

/** The feed watermark now: every transaction below it has ended. */
export async function currentWatermark(q: Queryable): Promise<bigint> {
  const res = await q.query<{ xmin: string }>(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`);
  return BigInt(res.rows[0]?.xmin ?? "0");
}

/** Serialises closers of one partner until the caller's transaction ends (two ledger replicas). */
export async function lockPartnerStatements(q: Queryable, partnerId: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtextextended('ledger.statement_days ' || $1, 0))`, [
    partnerId,
  ]);
}

/**
 * Freezes the membership of a closing day: every entry of the partner below `watermark`, written before
 * `end`, that no closed day holds yet (`after`: the last closed day's bound). Returns how many it took.
 */
export async function claimDayEntries(
  q: Queryable,
  day: { partnerId: string; statementId: string; end: Date; watermark: bigint },
  after: ClosedBound | undefined,
): Promise<number> {
  const open = openEntries(day.partnerId, after, 4);
  const res = await q.query(
    `INSERT INTO ledger.statement_day_entries (entry_id, statement_id)
     SELECT e.entry_id, $1 FROM ledger.entries e
      WHERE ${open.where} AND e.xid < $2::xid8 AND e.created_at < $3
     ON CONFLICT (entry_id) DO NOTHING`,
    [day.statementId, day.watermark.toString(), day.end, ...open.params],
  );
  return res.rowCount;
}

/** Stores a closed day; false when the same day and revision was already stored (nothing written). */
export async function insertClosedDay(
  q: Queryable,
  day: Omit<ClosedDay, "closedAt">,
  at: Date,
): Promise<boolean> {
  const s = day.summary;
  const res = await q.query(
    `INSERT INTO ledger.statement_days (statement_id, partner_id, day, revision, time_zone, period_start,
       period_end, opening_balance, closing_balance, line_count, total_debits, total_credits, sha256, watermark,
       closed_at, restates)
     VALUES ($1, $2, $3::date, $4, $5, $6, $7, $8::numeric, $9::numeric, $10, $11::numeric, $12::numeric, $13,
       $14::xid8, $15, $16)
     ON CONFLICT DO NOTHING`,
    [
      day.statementId,
      day.partnerId,
      day.date,
      day.revision,
      day.timeZone,
      day.periodStart,
      day.periodEnd,
      toDecimalString(s.openingBalance),
      toDecimalString(s.closingBalance),
      s.lineCount,
      toDecimalString(s.totalDebits),
      toDecimalString(s.totalCredits),
      s.sha256,
      day.watermark.toString(),
      at,
      day.restates ?? null,
    ],
  );
  return res.rowCount === 1;
}

interface DayEntryRow extends ScaledEntryRow {
  readonly before: string | null;
}

/**
 * WHERE (on `e`, parameters from $`first`) of the partner's balance entries below the feed watermark that
 * no closed day holds, bounded by the last closed day (see the file comment).
 */
function openEntries(
  partnerId: string,
  after: ClosedBound | undefined,
  first: number,
): { where: string; params: unknown[] } {
  const base = `e.partner_id = $${first} AND e.kind = 'balance' AND e.xid < pg_snapshot_xmin(pg_current_snapshot())
    AND NOT EXISTS (SELECT 1 FROM ledger.statement_day_entries m WHERE m.entry_id = e.entry_id)`;
  if (!after) return { where: base, params: [partnerId] };
  return {
    where: `${base} AND (e.xid >= $${first + 1}::xid8 OR e.created_at >= $${first + 2})`,
    params: [partnerId, after.watermark.toString(), after.end],
  };
}

/** FROM/WHERE of a scope's entries, its parameters starting at $1. */
function scopeSql(scope: DayScope): { from: string; params: unknown[] } {
  if (scope.kind === "revision") {
    return {
      from: `ledger.statement_revision_entries m JOIN ledger.entries e ON e.entry_id = m.entry_id
              WHERE m.statement_id = $1`,
      params: [scope.statementId],
    };
  }
  if (scope.kind === "closed") {
    return {
      from: `ledger.statement_day_entries m JOIN ledger.entries e ON e.entry_id = m.entry_id
              WHERE m.statement_id = $1`,
      params: [scope.statementId],
    };
  }
  const open = openEntries(scope.partnerId, scope.after, 3);
  return {
    from: `ledger.entries e
            WHERE ${open.where} AND e.created_at < $1 AND e.created_at >= COALESCE($2::timestamptz, '-infinity')`,
    params: [scope.end, scope.lower ?? null, ...open.params],
  };
}

/**
 * The statement of `dayEntries`: up to `limit` entries of the day's scope from `from` on (inclusive of its
 * entry, as the feed does) and, when `sumBefore`, the sum of the scope's entries before the first of them.
 * One statement: one snapshot.
 *
 * The scope is written out twice rather than shared in a CTE: a CTE read twice is materialised whole and
 * sorted for every page, while written out, the page is an index range scan in feed order from `from`
 * (entries_feed) that stops after `limit` rows, and the sum reads only the amounts before `from`. The sum
 * costs time in the entries before `from`: a caller that knows the balance there (carried from the page
 * before) leaves it out, so the page costs time in `limit` alone.
 */
export function dayEntriesQuery(
  scope: DayScope,
  from: FeedPosition | undefined,
  limit: number,
  sumBefore: boolean,
): { text: string; values: unknown[] } {
  const { from: source, params } = scopeSql(scope);
  const n = params.length;
  const page = `SELECT e.xid, e.entry_id, e.movement_id, e.amount, e.created_at FROM ${source}
          AND (e.xid, e.entry_id) >= ($${n + 1}::xid8, $${n + 2}::bigint)
        ORDER BY e.xid, e.entry_id LIMIT $${n + 3}`;
  const values = [...params, (from?.xid ?? 0n).toString(), (from?.entryId ?? 0n).toString(), limit];
  if (!sumBefore) {
    return {
      text: `WITH page AS (${page})
     SELECT ${scaledEntryColumns("p", "mv", "t")}, NULL::text AS before
       FROM page p
       LEFT JOIN ledger.movements mv ON mv.movement_id = p.movement_id
       LEFT JOIN ledger.transactions t ON t.tx_id = mv.tx_id
      ORDER BY p.xid, p.entry_id`,
      values,
    };
  }
  return {
    text: `WITH page AS (${page}),
     before AS (
       SELECT COALESCE(sum(e.amount), 0) AS s FROM ${source}
          AND (e.xid, e.entry_id) < ($${n + 1}::xid8, $${n + 2}::bigint)
     )
     SELECT ${scaledEntryColumns("p", "mv", "t")}, b.s::text AS before
       FROM before b
       LEFT JOIN page p ON true
       LEFT JOIN ledger.movements mv ON mv.movement_id = p.movement_id
       LEFT JOIN ledger.transactions t ON t.tx_id = mv.tx_id
      ORDER BY p.xid, p.entry_id`,
    values,
  };
}

/**
 * Up to `limit` entries of the day's scope from `from` on, and (when `sumBefore`, the default) the sum of
 * the scope's entries before the first of them; `before` is undefined when not asked for.
 */
export async function dayEntries(
  q: Queryable,
  scope: DayScope,
  from: FeedPosition | undefined,
  limit: number,
  sumBefore = true,
): Promise<{ entries: ScaledEntry[]; before: bigint | undefined }> {
  const query = dayEntriesQuery(scope, from, limit, sumBefore);
  const res = await q.query<DayEntryRow>(query.text, query.values);
  return {
    before: sumBefore ? parseScaled(res.rows[0]?.before ?? "0") : undefined,
    // A day without entries from `from` on is the `before` row alone, its page columns null.
    entries: res.rows.filter((r) => r.entry_id !== null).map(toScaledEntry),
  };
}

/** Σ of the partner's visible entries no closed day holds, written before `before`. */
export async function openSumBefore(
  q: Queryable,
  partnerId: string,
  after: ClosedBound | undefined,
  before: Date,
): Promise<Dec> {
  const open = openEntries(partnerId, after, 2);
  const res = await q.query<{ s: string }>(
    `SELECT COALESCE(sum(e.amount), 0)::text AS s FROM ledger.entries e WHERE ${open.where} AND e.created_at < $1`,
    [before, ...open.params],
  );
  return new Dec(res.rows[0]?.s ?? "0");
}
