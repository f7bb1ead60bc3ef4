/**
 * Calendar days as a partner's statements count them, for tests that must pass at any hour of the day,
 * including a run that straddles midnight: the day an instant falls on in a zone, the instant a closer
 * closes a given day (and not the one after it), and a wait that keeps a short stretch of writes off a
 * midnight.
 */
import { DateTime } from "luxon";

/** The date (YYYY-MM-DD) of the instant `at` in `timeZone`. */
export function localDay(at: Date | string | number, timeZone = "UTC"): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date(at));
}

/** The instant `day` ends in `timeZone` (the next day's local midnight). */
export function dayEnd(day: string, timeZone = "UTC"): Date {
  return DateTime.fromISO(day, { zone: timeZone }).plus({ days: 1 }).startOf("day").toJSDate();
}

/**
 * A minute after `day`'s grace period: a closer running then closes `day` (and any open day before it),
 * but not the day after, which is not due for another day.
 */
export function justAfterGrace(day: string, timeZone: string, graceMs: number): Date {
  return new Date(dayEnd(day, timeZone).getTime() + graceMs + 60_000);
}

/**
 * Resolves once the next `spanMs` hold no midnight in `timeZone`: at once, or just after the coming
 * midnight when it is nearer than that. Writes that must land on one day and take less than `spanMs`
 * then do, whatever the hour the test starts.
 */
export async function clearOfMidnight(timeZone: string, spanMs: number): Promise<void> {
  const now = Date.now();
  const midnight = dayEnd(localDay(now, timeZone), timeZone).getTime();
  if (midnight - now < spanMs) await new Promise((r) => setTimeout(r, midnight - now + 1_000));
}
