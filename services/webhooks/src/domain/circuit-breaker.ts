/**
 * Per-receiver circuit breaker (a receiver is one webhook configuration). Pure: the rules here are applied
 * by the delivery queue's statements (the claim lets an open circuit through for one probe; recording an
 * attempt moves the circuit), which mirror `admission`, `probeTaken` and `afterAttempts`.
 *
 * - An attempt counts as a failure when the receiver gave no HTTP answer (connection refused, host not
 *   found, address refused by policy, timeout, reset) or answered 5xx. Any other HTTP answer (2xx, 3xx,
 *   4xx, 410) is a success for the circuit: the receiver is up, whatever it thought of the notification.
 *   Failures on this side (the worker abandoned the attempt, the request could not be prepared) say
 *   nothing about the receiver and do not count.
 * - `failureThreshold` failures in a row open the circuit: nothing is claimed for that receiver until
 *   `probeIntervalMs` after the last failure. Then one due row is claimed as the probe and the circuit is
 *   half-open until the probe's claim lease would run out (a probe whose worker died is re-probed then).
 *   A failed probe opens the circuit again; a success closes it and the backlog drains.
 * - Test notifications count like events: their answer is as real as any.
 * - A paused receiver (an operator's decision) is never claimed, whatever its circuit.
 */

export const DEFAULT_CIRCUIT_FAILURE_THRESHOLD = 5;
export const DEFAULT_CIRCUIT_PROBE_INTERVAL_MS = 2_000;
/**
 * A receiver that answers again must see its backlog move within 5 s: the probe interval, plus a worker's
 * poll interval and the probe's round trip, must fit in that.
 */
export const MAX_CIRCUIT_PROBE_INTERVAL_MS = 4_000;

export interface CircuitSettings {
  /** Consecutive failures that open the circuit. */
  readonly failureThreshold: number;
  /** How long an open circuit waits after its last failure before one probe is sent. */
  readonly probeIntervalMs: number;
}

export const DEFAULT_CIRCUIT_SETTINGS: CircuitSettings = Object.freeze({
  failureThreshold: DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
  probeIntervalMs: DEFAULT_CIRCUIT_PROBE_INTERVAL_MS,
});

export type CircuitState = "closed" | "open" | "half_open";

/** A configuration's circuit as stored (webhooks.configs circuit_* columns; times in ms). */
export interface Circuit {
  readonly state: CircuitState;
  readonly failures: number;
  readonly openedAtMs: number | null;
  /** When an open circuit may be probed, or when a half-open probe's lease runs out; null iff closed. */
  readonly retryAtMs: number | null;
}

export const CLOSED_CIRCUIT: Circuit = Object.freeze({
  state: "closed",
  failures: 0,
  openedAtMs: null,
  retryAtMs: null,
});

/** What one attempt says about its receiver. */
export type CircuitEffect = "failure" | "success" | "none";

/**
 * An attempt's result as the worker saw it: an HTTP status, or no answer. `local` marks a failure on this
 * side (nothing reached the receiver through its fault).
 */
export type ReceiverObservation =
  | { readonly status: number }
  | { readonly error: string; readonly local?: boolean | undefined };

export function circuitEffect(observation: ReceiverObservation): CircuitEffect {
  if ("error" in observation) return observation.local === true ? "none" : "failure";
  return observation.status >= 500 && observation.status <= 599 ? "failure" : "success";
}

/** How much of a receiver's due work a claim may take now. */
export type Admission = "all" | "probe" | "none";

export function admission(circuit: Circuit, paused: boolean, nowMs: number): Admission {
  if (paused) return "none";
  if (circuit.state === "closed") return "all";
  return circuit.retryAtMs !== null && circuit.retryAtMs <= nowMs ? "probe" : "none";
}

/** The circuit once a probe was claimed: half-open until the probe's lease would run out. */
export function probeTaken(circuit: Circuit, nowMs: number, leaseMs: number): Circuit {
  if (circuit.state === "closed") return circuit;
  return { ...circuit, state: "half_open", retryAtMs: nowMs + leaseMs };
}

export interface ObservedAttempt {
  readonly effect: CircuitEffect;
  readonly atMs: number;
}

/**
 * The circuit after a batch of recorded attempts of one receiver. The latest success resets it; the
 * failures after that success add up, and open it when they reach the threshold or when the circuit was
 * not closed (a failed probe, or a late failure of an attempt sent before the circuit opened).
 */
export function afterAttempts(
  circuit: Circuit,
  attempts: readonly ObservedAttempt[],
  settings: CircuitSettings,
): Circuit {
  const successes = attempts.filter((a) => a.effect === "success").map((a) => a.atMs);
  const lastSuccess = successes.length === 0 ? undefined : Math.max(...successes);
  const base = lastSuccess === undefined ? circuit : CLOSED_CIRCUIT;
  const failures = attempts
    .filter((a) => a.effect === "failure" && (lastSuccess === undefined || a.atMs > lastSuccess))
    .map((a) => a.atMs);
  if (failures.length === 0) return base;
  const lastFailure = Math.max(...failures);
  const count = base.failures + failures.length;
  if (base.state === "closed" && count < settings.failureThreshold) {
    return { ...CLOSED_CIRCUIT, failures: count };
  }
  return {
    state: "open",
    failures: count,
    openedAtMs: base.state === "closed" ? lastFailure : base.openedAtMs,
    retryAtMs: lastFailure + settings.probeIntervalMs,
  };
}

/** A change worth counting: the receiver was cut off, or is served again. */
export type CircuitTransition = "opened" | "closed";

export function transition(before: CircuitState, after: CircuitState): CircuitTransition | undefined {
  if (before === "closed" && after !== "closed") return "opened";
  if (before !== "closed" && after === "closed") return "closed";
  return undefined;
}
