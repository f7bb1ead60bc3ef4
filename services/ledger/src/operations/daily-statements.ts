/**
 * Daily statements: a partner's time zone, a day's summary and lines (closed: frozen; open: as of now), and
 * closing due days. The rules are in docs/decisions/0031-daily-statements.md.
 */
import type { Database, Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import { Dec } from "@payouts/platform/money/decimal";
import { invalidField, LEDGER, ledgerFailure } from "../domain/ledger-failure.js";
import { decOf, scaledOf } from "../domain/scaled-amount.js";
import {
  addDays,
  DaySummariser,
  type DaySummary,
  DEFAULT_TIME_ZONE,
  daysBetween,
  hasStarted,
  isDue,
  localDate,
  periodOf,
  statementId,
  summariseDay,
  validDate,
  validTimeZone,
} from "../domain/statement-days.js";
import {
  dayLinesPageSize,
  type FeedPosition,
  isAfter,
  type ScaledEntry,
  type ScaledLine,
  type StatementLine,
  scaledStatementLines,
  toDecimalLine,
} from "../domain/statement-lines.js";
import { statementClosedEvent } from "../events/statement-event.js";
import { insertKeyedOutboxEvent } from "../store/outbox-store.js";
import {
  type ClosedBound,
  type ClosedDay,
  claimDayEntries,
  closedDays,
  currentWatermark,
  type DayScope,
  dayEntries,
  dayRevision,
  edgeClosedDay,
  firstEntryAt,
  insertClosedDay,
  lockPartnerStatements,
  openSumBefore,
  partnersWithBalance,
  putTimeZone,
  timeZoneOf,
} from "../store/statement-day-store.js";
import { decodeDayCursor, encodeDayCursor } from "./day-cursor.js";

/** Days one ListDailyStatements call may span. */
export const MAX_STATEMENT_RANGE_DAYS = 31;
/**
 * Entries read per round trip while a day is summarised: each read costs PostgreSQL a part that does not
 * depend on its size, so a few large reads cost less than many small ones.
 */
const SUMMARY_PAGE = 20_000;

export type DayStatus = "open" | "closed";

/** A day as a reader sees it: where its lines come from, and (for a closed day) its frozen summary. */
export interface DayView {
  readonly statementId: string;
  readonly partnerId: string;
  readonly date: string;
  readonly timeZone: string;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  readonly status: DayStatus;
  readonly revision: number;
  readonly restates: string | undefined;
  readonly scope: DayScope | undefined;
  /** Balance before the day's first line. */
  readonly opening: Dec;
  readonly stored: DaySummary | undefined;
}

export interface DayStatement extends DayView {
  readonly summary: DaySummary;
}

export async function getTimeZone(db: Queryable, partnerId: string): Promise<string> {
  return (await timeZoneOf(db, partnerId)) ?? DEFAULT_TIME_ZONE;
}

export async function setTimeZone(
  db: Queryable,
  partnerId: string,
  timeZone: string,
  now: Date,
): Promise<string> {
  const zone = validTimeZone(timeZone);
  await putTimeZone(db, partnerId, zone, now);
  return zone;
}

function closedView(day: ClosedDay): DayView {
  return {
    statementId: day.statementId,
    partnerId: day.partnerId,
    date: day.date,
    timeZone: day.timeZone,
    periodStart: day.periodStart,
    periodEnd: day.periodEnd,
    status: "closed",
    revision: day.revision,
    restates: day.restates,
    scope: { kind: day.revision === 1 ? "closed" : "revision", statementId: day.statementId },
    opening: day.summary.openingBalance,
    stored: day.summary,
  };
}

/**
 * Where the day `date` stands now: closed (stored), empty and closed for good (before the partner's first
 * closed day), or open. STATEMENT_DAY_NOT_STARTED for a day that has not begun in the partner's zone.
 */
export async function viewDay(db: Queryable, partnerId: string, date: string, now: Date): Promise<DayView> {
  validDate(date);
  const [stored] = await closedDays(db, partnerId, date, date);
  if (stored) return closedView(stored);
  const timeZone = await getTimeZone(db, partnerId);
  const period = periodOf(date, timeZone);
  if (!hasStarted(period, now)) {
    throw ledgerFailure(LEDGER.of("STATEMENT_DAY_NOT_STARTED", date, timeZone));
  }
  const common = {
    statementId: statementId(partnerId, date, 1),
    partnerId,
    date,
    timeZone,
    periodStart: period.start,
    periodEnd: period.end,
    revision: 1,
    restates: undefined,
  };
  const first = await edgeClosedDay(db, partnerId, "first");
  if (first && date < first.date) {
    // The first closed day took every entry written before its end: no day before it can hold one.
    return { ...common, status: "closed", scope: undefined, opening: new Dec(0), stored: undefined };
  }
  const last = await edgeClosedDay(db, partnerId, "last");
  const after = last ? boundOf(last) : undefined;
  const firstOpen = last !== undefined && date === addDays(last.date, 1);
  const lower = firstOpen ? undefined : period.start;
  const base = last ? last.summary.closingBalance : new Dec(0);
  const opening = base.plus(lower ? await openSumBefore(db, partnerId, after, lower) : 0);
  return {
    ...common,
    status: "open",
    scope: { kind: "open", partnerId, after, lower, end: period.end },
    opening,
    stored: undefined,
  };
}

const boundOf = (day: ClosedDay): ClosedBound => ({ watermark: day.watermark, end: day.periodEnd });

/**
 * Up to `size` lines of the scope after `from`, given `start`: the running balance before `from`'s entry
 * (the opening balance when `from` is undefined), or undefined to sum the scope before `from` for it.
 * `next` is the balance before the last line's entry: the `start` of the page after it.
 */
async function readLines(
  db: Queryable,
  scope: DayScope,
  opening: bigint,
  from: FeedPosition | undefined,
  start: bigint | undefined,
  size: number,
): Promise<{ lines: ScaledLine[]; next: bigint | undefined }> {
  const read = size + 1;
  const { entries, before } = await dayEntries(db, scope, from, read, start === undefined);
  const all = scaledStatementLines(entries, start ?? opening + (before ?? 0n));
  const after = from ? all.filter((line) => isAfter(line.position, from)) : all;
  const lines = after.slice(0, size);
  const last = lines.at(-1);
  const main = last && all.find((l) => l.position.entryId === last.position.entryId && l.position.part === 0);
  return { lines, next: main && main.balanceAfter - main.amountUsd };
}

/**
 * One page of a day's lines after `after` (a cursor of this day), with running balances, their USD
 * amounts scaled (`scaled-amount.ts`): what the statement download pages through.
 */
export async function dayScaledLinesPage(
  db: Queryable,
  view: DayView,
  after: string,
  limit: number,
): Promise<{ lines: ScaledLine[]; nextCursor: string | undefined }> {
  const size = dayLinesPageSize(limit);
  if (!view.scope) return { lines: [], nextCursor: after || undefined };
  const cursor = after ? decodeDayCursor(view, after) : undefined;
  const opening = scaledOf(view.opening);
  const start = cursor ? cursor.balanceBefore && scaledOf(cursor.balanceBefore) : opening;
  const page = await readLines(db, view.scope, opening, cursor?.position, start, size);
  const last = page.lines.at(-1);
  return {
    lines: page.lines,
    nextCursor:
      last && page.next !== undefined
        ? encodeDayCursor(view, last.position, decOf(page.next))
        : after || undefined,
  };
}

/** `dayScaledLinesPage` with decimal amounts. */
export async function dayLinesPage(
  db: Queryable,
  view: DayView,
  after: string,
  limit: number,
): Promise<{ lines: StatementLine[]; nextCursor: string | undefined }> {
  const page = await dayScaledLinesPage(db, view, after, limit);
  return { lines: page.lines.map(toDecimalLine), nextCursor: page.nextCursor };
}

/**
 * Every line of the day's scope in feed order, folded into its summary: read `entriesPerRead` entries at
 * a time, each read starting from the balance the one before ended on, so the day is read once. The next
 * read is asked for as soon as a read arrives (it needs only where that one ended), so PostgreSQL reads
 * it while these lines are folded.
 */
export async function summarise(
  db: Queryable,
  scope: DayScope | undefined,
  opening: Dec,
  entriesPerRead = SUMMARY_PAGE,
): Promise<DaySummary> {
  if (!scope) return summariseDay(opening, []);
  const summariser = new DaySummariser(opening);
  const size = entriesPerRead + 1;
  const read = (from: FeedPosition | undefined): Promise<{ entries: ScaledEntry[] }> =>
    dayEntries(db, scope, from, size, false);
  // Each read after the first starts at the last entry of the one before (the feed reads from its
  // position inclusive), whose lines are already folded.
  let seen: FeedPosition | undefined;
  let start = scaledOf(opening);
  let pending: Promise<{ entries: ScaledEntry[] }> | undefined = read(undefined);
  while (pending) {
    const { entries }: { entries: ScaledEntry[] } = await pending;
    const last: ScaledEntry | undefined = entries.at(-1);
    const end: FeedPosition | undefined = last && { xid: last.xid, entryId: last.entryId, part: 1 };
    pending = end && entries.length === size ? read(end) : undefined;
    // A failure folding these lines leaves the next read unawaited: its own failure concerns no one.
    pending?.catch(() => {});
    const lines = scaledStatementLines(entries, start);
    const after = seen;
    summariser.add(after ? lines.filter((line) => isAfter(line.position, after)) : lines);
    const closing = lines.at(-1);
    // The next read starts again at `last`: from the balance before it.
    if (last && closing) start = closing.balanceAfter - last.amount;
    seen = end;
  }
  return summariser.summary();
}

/**
 * Revision `revision` of the day: the day as `viewDay` sees it for revision 1, else the stored restatement
 * (STATEMENT_REVISION_NOT_FOUND when the day has no such revision).
 */
export async function viewRevision(
  db: Queryable,
  partnerId: string,
  date: string,
  revision: number,
  now: Date,
): Promise<DayView> {
  if (!Number.isInteger(revision) || revision < 1)
    throw invalidField("revision", "must be a positive integer");
  if (revision === 1) return viewDay(db, partnerId, date, now);
  validDate(date);
  const stored = await dayRevision(db, partnerId, date, revision);
  if (!stored) throw ledgerFailure(LEDGER.of("STATEMENT_REVISION_NOT_FOUND", date, revision));
  return closedView(stored);
}

/** The day's latest revision number (1 when it was never restated). */
export async function latestRevision(db: Queryable, partnerId: string, date: string): Promise<number> {
  return (await dayRevision(db, partnerId, date, "latest"))?.revision ?? 1;
}

/** The day's statement: the stored summary when closed, computed from its current lines when open. */
export async function dayStatement(
  db: Queryable,
  partnerId: string,
  date: string,
  now: Date,
  revision = 1,
): Promise<DayStatement> {
  const view = await viewRevision(db, partnerId, date, revision, now);
  return { ...view, summary: view.stored ?? (await summarise(db, view.scope, view.opening)) };
}

/** The statements of `from`..`to` (inclusive, at most MAX_STATEMENT_RANGE_DAYS), up to the current day. */
export async function dayStatements(
  db: Queryable,
  partnerId: string,
  range: { from: string; to: string },
  now: Date,
): Promise<DayStatement[]> {
  validDate(range.from, "from");
  validDate(range.to, "to");
  const span = daysBetween(range.from, range.to) + 1;
  if (span < 1) throw invalidField("to", "is before from");
  if (span > MAX_STATEMENT_RANGE_DAYS) {
    throw invalidField("to", `is more than ${MAX_STATEMENT_RANGE_DAYS} days after from (both included)`);
  }
  const days: DayStatement[] = [];
  for (let i = 0; i < span; i++) {
    const date = addDays(range.from, i);
    if (i > 0 && !hasStarted(periodOf(date, await getTimeZone(db, partnerId)), now)) break;
    days.push(await dayStatement(db, partnerId, date, now));
  }
  return days;
}

/**
 * Closes the partner's next day if it is due: the day after its last closed one (or the day of its first
 * visible entry). Holds the partner's statement lock, so two closers close a day once. The day's
 * statement.closed event is written to the outbox in the same transaction: a closed day is announced
 * exactly once. Returns the day closed, or undefined when none was due.
 */
export async function closeNextDay(
  db: Database,
  partnerId: string,
  now: Date,
  graceMs: number,
): Promise<ClosedDay | undefined> {
  return db.transaction(async (tx) => {
    await lockPartnerStatements(tx, partnerId);
    const timeZone = await getTimeZone(tx, partnerId);
    const last = await edgeClosedDay(tx, partnerId, "last");
    let date: string | undefined;
    if (last) date = addDays(last.date, 1);
    else {
      const firstAt = await firstEntryAt(tx, partnerId);
      date = firstAt ? localDate(firstAt, timeZone) : undefined;
    }
    if (!date) return undefined;
    const period = periodOf(date, timeZone);
    if (!isDue(period, now, graceMs)) return undefined;
    const id = statementId(partnerId, date, 1);
    // Read before the claim: the watermark only rises, so every entry below it is visible to the claim.
    const watermark = await currentWatermark(tx);
    await claimDayEntries(
      tx,
      { partnerId, statementId: id, end: period.end, watermark },
      last && boundOf(last),
    );
    const opening = last ? last.summary.closingBalance : new Dec(0);
    const summary = await summarise(tx, { kind: "closed", statementId: id }, opening);
    const day = {
      statementId: id,
      partnerId,
      date,
      revision: 1,
      restates: undefined,
      timeZone,
      periodStart: period.start,
      periodEnd: period.end,
      summary,
      watermark,
    };
    if (!(await insertClosedDay(tx, day, now))) return undefined;
    const event = statementClosedEvent(day, newId("evt"), now);
    await insertKeyedOutboxEvent(tx, {
      eventId: event.eventId,
      eventKey: id,
      sequence: event.sequence,
      eventType: event.eventType,
      payload: event.payload,
      headers: { "event-id": event.eventId, "event-type": event.eventType },
    });
    return { ...day, closedAt: now };
  });
}

/** Closes every due day of every partner; returns how many days it closed. */
export async function closeDueDays(
  db: Database,
  now: Date,
  graceMs: number,
  maxDaysPerPartner = 400,
): Promise<number> {
  let closed = 0;
  for (const partnerId of await partnersWithBalance(db)) {
    for (let i = 0; i < maxDaysPerPartner; i++) {
      if (!(await closeNextDay(db, partnerId, now, graceMs))) break;
      closed++;
    }
  }
  return closed;
}
