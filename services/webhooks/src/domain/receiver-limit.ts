/**
 * Adaptive concurrency per receiver (one webhook configuration), additive increase and multiplicative
 * decrease as in TCP. Pure: the delivery worker keeps one `ReceiverLimits` per process and passes the
 * limits above the starting one to its claims.
 *
 * - A receiver starts at `initial` requests in flight (WEBHOOK_RECEIVER_CONCURRENCY), never goes below it
 *   and never above `max` (WEBHOOK_RECEIVER_MAX_CONCURRENCY).
 * - A 2xx answered within `fastMs`, while the receiver had at least half its limit in flight (it was
 *   actually using it), adds 1 / limit: about one more request per round of `limit` answers.
 * - No answer (timeout, refused or reset connection, address refused), a 5xx or a 429 halves the limit,
 *   once per round: answers to requests sent before the last cut do not cut again.
 * - Anything else (a slow 2xx, 3xx, other 4xx, a failure on this side) leaves it alone.
 */
import type { ReceiverObservation } from "./circuit-breaker.js";

export interface ReceiverLimitSettings {
  readonly initial: number;
  readonly max: number;
  /** A 2xx slower than this does not grow the limit. */
  readonly fastMs: number;
}

export type LimitSignal = "grow" | "cut" | "hold";

/** What one finished attempt says about its receiver's capacity. */
export function limitSignal(
  answer: ReceiverObservation & { readonly latencyMs: number },
  fastMs: number,
): LimitSignal {
  if ("error" in answer) return answer.local === true ? "hold" : "cut";
  if (answer.status === 429 || (answer.status >= 500 && answer.status <= 599)) return "cut";
  if (answer.status >= 200 && answer.status <= 299 && answer.latencyMs <= fastMs) return "grow";
  return "hold";
}

export interface ReceiverLimit {
  /** Fractional: growth adds 1 / limit per answer. The usable limit is its floor. */
  readonly limit: number;
  /** Cuts so far: an answer to a request sent before the latest cut does not cut again. */
  readonly cuts: number;
}

export function startingLimit(settings: ReceiverLimitSettings): ReceiverLimit {
  return { limit: settings.initial, cuts: 0 };
}

/** Requests the receiver may have in flight now. */
export function usableLimit(state: ReceiverLimit): number {
  return Math.floor(state.limit);
}

export interface Answered {
  readonly signal: LimitSignal;
  /** The receiver's requests in flight when this answer came, this one included. */
  readonly inFlight: number;
  /** `cuts` when this request was sent. */
  readonly sentAfterCuts: number;
}

export function afterAnswer(
  state: ReceiverLimit,
  answered: Answered,
  settings: ReceiverLimitSettings,
): ReceiverLimit {
  if (answered.signal === "grow") {
    if (answered.inFlight * 2 < usableLimit(state) || state.limit >= settings.max) return state;
    return { limit: Math.min(settings.max, state.limit + 1 / state.limit), cuts: state.cuts };
  }
  if (answered.signal === "cut") {
    if (answered.sentAfterCuts < state.cuts) return state;
    return { limit: Math.max(settings.initial, Math.floor(state.limit / 2)), cuts: state.cuts + 1 };
  }
  return state;
}

/** One attempt in flight at a receiver: report its answer (if any) once, then end it. */
export interface LimitTicket {
  answered(answer: ReceiverObservation & { readonly latencyMs: number }): void;
  end(): void;
}

/**
 * The limits of every receiver this process sends to. Receivers back at the starting limit with nothing in
 * flight are forgotten, so the map holds only receivers that are busy or have earned more.
 */
export interface ReceiverLimits {
  /** Counts a request to `configId` from now until the ticket ends. */
  start(configId: string): LimitTicket;
  /** Receivers whose usable limit is above the starting one, for the claim. */
  aboveInitial(): Record<string, number>;
  /** The largest usable limit of any receiver. */
  largest(): number;
  limitOf(configId: string): number;
}

export function createReceiverLimits(settings: ReceiverLimitSettings): ReceiverLimits {
  if (settings.max < settings.initial)
    throw new Error("the most concurrency per receiver is below its start");
  const receivers = new Map<string, { state: ReceiverLimit; inFlight: number }>();
  const forgetIfPlain = (configId: string) => {
    const entry = receivers.get(configId);
    if (entry && entry.inFlight === 0 && entry.state.limit <= settings.initial) receivers.delete(configId);
  };
  return {
    start(configId) {
      let entry = receivers.get(configId);
      if (!entry) {
        entry = { state: startingLimit(settings), inFlight: 0 };
        receivers.set(configId, entry);
      }
      const current = entry;
      current.inFlight += 1;
      const sentAfterCuts = current.state.cuts;
      let answered = false;
      let ended = false;
      return {
        answered(answer) {
          if (answered || ended) return;
          answered = true;
          current.state = afterAnswer(
            current.state,
            { signal: limitSignal(answer, settings.fastMs), inFlight: current.inFlight, sentAfterCuts },
            settings,
          );
        },
        end() {
          if (ended) return;
          ended = true;
          current.inFlight -= 1;
          forgetIfPlain(configId);
        },
      };
    },
    aboveInitial() {
      const limits: Record<string, number> = {};
      for (const [configId, entry] of receivers) {
        const usable = usableLimit(entry.state);
        if (usable > settings.initial) limits[configId] = usable;
      }
      return limits;
    },
    largest() {
      let largest = settings.initial;
      for (const entry of receivers.values()) largest = Math.max(largest, usableLimit(entry.state));
      return largest;
    },
    limitOf(configId) {
      const entry = receivers.get(configId);
      return entry ? usableLimit(entry.state) : settings.initial;
    },
  };
}
