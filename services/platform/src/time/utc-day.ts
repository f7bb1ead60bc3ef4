/**
 * A settlement day: a calendar day in UTC, written YYYY-MM-DD. The rail files its records and the ledger
 * reconciles them by this day, so both sides cut days at the same instant whatever their local time zone.
 */
export interface UtcDay {
  /** YYYY-MM-DD. */
  readonly day: string;
  /** 00:00:00.000 UTC of the day (inclusive). */
  readonly start: Date;
  /** 00:00:00.000 UTC of the next day (exclusive). */
  readonly end: Date;
}

const DAY_MS = 86_400_000;

/** The day named by `text`, or undefined when it is not a real YYYY-MM-DD date. */
export function parseUtcDay(text: string): UtcDay | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const start = new Date(`${text}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== text) return undefined;
  return { day: text, start, end: new Date(start.getTime() + DAY_MS) };
}

/** The UTC day an instant falls in. */
export function utcDayOf(at: Date): UtcDay {
  const day = at.toISOString().slice(0, 10);
  const start = new Date(`${day}T00:00:00.000Z`);
  return { day, start, end: new Date(start.getTime() + DAY_MS) };
}

/** The day `days` days after `day` (before it when negative). */
export function addDays(day: UtcDay, days: number): UtcDay {
  return utcDayOf(new Date(day.start.getTime() + days * DAY_MS));
}
