/**
 * When a notification is tried again, and when it is given up.
 *
 * A schedule is a list of delays: entry n is the wait before attempt n + 1, counted from the moment the
 * previous attempt failed (entry 0 from the moment the delivery was stored). Its length is the number of
 * attempts; once they are used up the delivery is `dead` (visible and redeliverable by hand).
 *
 * Every delay gets ±20 % jitter so that receivers coming back from an outage are not hit by every
 * delivery at the same instant.
 *
 * `Retry-After` (seconds or an HTTP date) is honoured within [delay, 2 × delay] of the jittered delay, as
 * Svix does: never earlier than the schedule, because the schedule is our back-off promise to every
 * receiver; never later than twice it, because by the ordering rule a postponed delivery also holds back
 * every later event of the same transaction, and a receiver's header must not stretch that without bound.
 */
import { fail, ok, type Result } from "./result.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** 0 s, 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, 48 h: ten attempts over about 3 days 21 h. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = Object.freeze([
  0,
  10 * SECOND,
  MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
  48 * HOUR,
]);

export const JITTER_RATIO = 0.2;
export const MAX_SCHEDULE_ENTRIES = 50;
export const MAX_SCHEDULED_DELAY_MS = 7 * 24 * HOUR;

const ENV_NAME = "WEBHOOK_RETRY_SCHEDULE_MS";

/** Parses `WEBHOOK_RETRY_SCHEDULE_MS`, e.g. `"0,1000,5000"`; spaces around entries are allowed. */
export function parseRetryScheduleMs(text: string): Result<number[]> {
  if (text.trim() === "")
    return invalidSchedule(`${ENV_NAME} must list at least one delay, e.g. "0,10000,60000"`);
  const entries = text.split(",").map((entry) => entry.trim());
  if (entries.length > MAX_SCHEDULE_ENTRIES) {
    return invalidSchedule(
      `${ENV_NAME} lists ${entries.length} delays; at most ${MAX_SCHEDULE_ENTRIES} are allowed`,
    );
  }
  const delays: number[] = [];
  for (const [index, entry] of entries.entries()) {
    const position = `${ENV_NAME} entry ${index + 1} (${JSON.stringify(entry)})`;
    if (!/^\d+$/.test(entry)) return invalidSchedule(`${position} is not a whole number of milliseconds`);
    const delay = Number(entry);
    if (delay > MAX_SCHEDULED_DELAY_MS) {
      return invalidSchedule(`${position} exceeds ${MAX_SCHEDULED_DELAY_MS} ms (7 days)`);
    }
    delays.push(delay);
  }
  return ok(delays);
}

export type NextAttempt = { readonly kind: "retry"; readonly atMs: number } | { readonly kind: "dead" };

export interface NextAttemptInput {
  /** Attempts already made for this delivery (0 before the first one). */
  readonly attemptsMade: number;
  readonly schedule: readonly number[];
  readonly nowMs: number;
  /** Uniform in [0, 1), injected so tests are deterministic. */
  readonly random: () => number;
  /** `Retry-After` of the failed attempt's response, if it had one. */
  readonly retryAfterHeader?: string | undefined;
}

/** When to try next, or `dead` when the schedule is used up. */
export function nextAttempt(input: NextAttemptInput): NextAttempt {
  const { attemptsMade, schedule, nowMs } = input;
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
  }
  const scheduled = schedule[attemptsMade];
  if (scheduled === undefined) return { kind: "dead" };
  const delay = withJitter(scheduled, input.random());
  const requested =
    input.retryAfterHeader === undefined ? undefined : parseRetryAfterMs(input.retryAfterHeader, nowMs);
  const chosen = requested === undefined ? delay : Math.min(Math.max(requested, delay), 2 * delay);
  return { kind: "retry", atMs: nowMs + chosen };
}

/** `delayMs` moved by up to ±JITTER_RATIO of itself; `random` outside [0, 1) is clamped. */
export function withJitter(delayMs: number, random: number): number {
  const unit = Math.min(Math.max(random, 0), 1);
  return Math.round(delayMs * (1 + JITTER_RATIO * (2 * unit - 1)));
}

/**
 * Milliseconds a `Retry-After` value asks us to wait: delay-seconds, or an IMF-fixdate (the only date form
 * senders may generate, RFC 9110 §10.2.3 and §5.6.7). Anything else is ignored (`undefined`).
 */
export function parseRetryAfterMs(header: string, nowMs: number): number | undefined {
  const value = header.trim();
  if (/^\d{1,10}$/.test(value)) return Number(value) * SECOND;
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(at - nowMs, 0);
}

/** What an attempt's outcome means for the delivery. */
export type ResponseClass = "delivered" | "retry" | "disable";

/** An HTTP status, or a failure before one arrived (DNS, refused address, connect error, 10 s timeout). */
export type AttemptOutcome = { readonly status: number } | { readonly error: string };

/**
 * 2xx is delivered. 410 Gone is the receiver retiring itself (Standard Webhooks): the configuration is
 * disabled. Everything else is retried, 3xx included (redirects are never followed) and 4xx too: a
 * payout notification must not be lost to a receiver's transient misconfiguration.
 */
export function classifyResponse(outcome: AttemptOutcome): ResponseClass {
  if ("error" in outcome) return "retry";
  if (!Number.isInteger(outcome.status)) return "retry";
  if (outcome.status >= 200 && outcome.status <= 299) return "delivered";
  if (outcome.status === 410) return "disable";
  return "retry";
}

function invalidSchedule(message: string): Result<never> {
  return fail("INVALID_CONFIG", message, ENV_NAME);
}
