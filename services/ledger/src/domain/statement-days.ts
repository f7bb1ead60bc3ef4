/**
 * Daily statements, pure: a partner's day in its time zone, the summary of a day's lines and the hash that
 * fixes them. Zone arithmetic is Luxon's (IANA database through Intl).
 *
 * A day `d` in zone Z is [the first instant of `d` in Z, the first instant of `d + 1` in Z): usually local
 * midnights, so a day is 24 hours, 23 on the day clocks spring forward and 25 on the day they fall back
 * (and starts at 01:00 where a zone skips midnight itself).
 *
 * Canonical serialisation (the input of `sha256`), defined here once: for each line, in statement order,
 * the JSON array of strings
 *   [id, type, tx_id, partner_transaction_id, amount, currency, exchange_rate, amount_usd, created_at,
 *    balance_after_usd]
 * (`JSON.stringify`, no spaces) followed by "\n", in UTF-8. Absent fields are ""; decimals are canonical
 * text (`toDecimalString`: plain notation, no trailing zeros, "0" not "-0"); created_at is ISO 8601 UTC
 * with milliseconds (`Date.toISOString`). JSON quoting keeps any character of a partner reference
 * unambiguous. A day with no line hashes the empty string.
 */
import { Sha256, sha256Hex } from "@payouts/platform/digest";
import type { Dec } from "@payouts/platform/money/decimal";
import { DateTime, IANAZone } from "luxon";
import { invalidField } from "./ledger-failure.js";
import { decOf, formatScaled, scaledOf } from "./scaled-amount.js";
import { type ScaledLine, type StatementLine, toScaledLine } from "./statement-lines.js";

export const DEFAULT_TIME_ZONE = "UTC";

/** A day of a zone: its ISO date and its period. */
export interface StatementPeriod {
  readonly date: string;
  readonly timeZone: string;
  readonly start: Date;
  readonly end: Date;
}

export interface DaySummary {
  readonly openingBalance: Dec;
  readonly closingBalance: Dec;
  readonly lineCount: number;
  /** Σ of the negative lines, as a positive amount. */
  readonly totalDebits: Dec;
  readonly totalCredits: Dec;
  readonly sha256: string;
}

/** The IANA zone name, canonical as given; INVALID_FIELD `time_zone` when the zone database lacks it. */
export function validTimeZone(name: string): string {
  if (name.length === 0 || name.length > 64 || !IANAZone.isValidZone(name)) {
    throw invalidField("time_zone", "is not an IANA time zone name (e.g. America/Sao_Paulo)");
  }
  return name;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD calendar date that exists; INVALID_FIELD on `field` otherwise. */
export function validDate(date: string, field = "date"): string {
  const parsed = ISO_DATE.test(date) ? DateTime.fromISO(date, { zone: "UTC" }) : undefined;
  if (!parsed?.isValid || parsed.toISODate() !== date || parsed.year < 2000) {
    throw invalidField(field, "is not a calendar date YYYY-MM-DD (from 2000)");
  }
  return date;
}

/** The day `date` of `timeZone`. */
export function periodOf(date: string, timeZone: string): StatementPeriod {
  const start = DateTime.fromISO(date, { zone: timeZone }).startOf("day");
  const end = start.plus({ days: 1 }).startOf("day");
  return { date, timeZone, start: start.toJSDate(), end: end.toJSDate() };
}

/** The date, in `timeZone`, of the instant `at`. */
export function localDate(at: Date, timeZone: string): string {
  const date = DateTime.fromJSDate(at, { zone: timeZone }).toISODate();
  if (!date) throw new Error(`no local date for ${at.toISOString()} in ${timeZone}`);
  return date;
}

/** `date` moved by `days` calendar days. */
export function addDays(date: string, days: number): string {
  const moved = DateTime.fromISO(date, { zone: "UTC" }).plus({ days }).toISODate();
  if (!moved) throw new Error(`bad date ${date}`);
  return moved;
}

/** Calendar days from `from` to `to` (0 when equal, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const a = DateTime.fromISO(from, { zone: "UTC" });
  const b = DateTime.fromISO(to, { zone: "UTC" });
  return Math.round(b.diff(a, "days").days);
}

/** A day may close once its end plus the grace period has passed. */
export function isDue(period: StatementPeriod, now: Date, graceMs: number): boolean {
  return period.end.getTime() + graceMs <= now.getTime();
}

/** Whether the day has begun at `now` (a day that has not is refused; today is served open). */
export function hasStarted(period: StatementPeriod, now: Date): boolean {
  return period.start.getTime() <= now.getTime();
}

/** The canonical text of one line (see the file comment). */
export function canonicalLine(line: ScaledLine): string {
  const fields = [
    line.id,
    line.type,
    line.txId ?? "",
    line.partnerTransactionId ?? "",
    line.localAmount ?? "",
    line.currency ?? "",
    line.exchangeRate ?? "",
    formatScaled(line.amountUsd),
    line.createdAt.toISOString(),
    formatScaled(line.balanceAfter),
  ];
  return `${JSON.stringify(fields)}\n`;
}

/**
 * Folds a day's lines, in order, into its summary, page by page so a long day is never held whole. The
 * running balance of the lines must continue from `opening` (checked: a gap is a bug, not a statement).
 * Sums are exact (scaled amounts): opening + Σ lines = closing to the last decimal.
 */
export class DaySummariser {
  private readonly hash = new Sha256();
  private balance: bigint;
  private count = 0;
  private debits = 0n;
  private credits = 0n;

  constructor(private readonly opening: Dec) {
    this.balance = scaledOf(opening);
  }

  add(lines: Iterable<ScaledLine>): void {
    for (const line of lines) {
      this.balance += line.amountUsd;
      if (this.balance !== line.balanceAfter) {
        throw new Error(`line ${line.id} does not continue the day's running balance`);
      }
      if (line.amountUsd < 0n) this.debits -= line.amountUsd;
      else this.credits += line.amountUsd;
      this.count++;
      this.hash.update(canonicalLine(line));
    }
  }

  summary(): DaySummary {
    return {
      openingBalance: this.opening,
      closingBalance: decOf(this.balance),
      lineCount: this.count,
      totalDebits: decOf(this.debits),
      totalCredits: decOf(this.credits),
      sha256: this.hash.hex(),
    };
  }
}

/** The summary of lines held at once (tests, small days). */
export function summariseDay(opening: Dec, lines: Iterable<StatementLine>): DaySummary {
  const s = new DaySummariser(opening);
  s.add(Array.from(lines, toScaledLine));
  return s.summary();
}

/** The statement's id: opaque, stable for a partner's day and revision. */
export function statementId(partnerId: string, date: string, revision: number): string {
  const digest = sha256Hex(`${partnerId}\n${date}\n${revision}`);
  return `stmt_${date.replaceAll("-", "")}_${digest.slice(0, 20)}`;
}
