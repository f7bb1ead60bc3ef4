/**
 * What happens to a delivery after one attempt: the response class (retry-policy) combined with the
 * schedule. Pure, so the worker only applies the decision.
 */
import { type AttemptOutcome, classifyResponse, type NextAttemptInput, nextAttempt } from "./retry-policy.js";

export type DeliveryDecision =
  | { readonly kind: "delivered" }
  | { readonly kind: "retry"; readonly atMs: number }
  /** The schedule is used up: visible as `dead`, redeliverable by hand. */
  | { readonly kind: "dead" }
  /** 410 Gone: the delivery is dead and the configuration is switched off. */
  | { readonly kind: "disable" };

/** The attempt just finished (counted in `attemptsMade`) and what the schedule needs to place the next one. */
export interface DecisionInput extends NextAttemptInput {
  readonly outcome: AttemptOutcome;
}

export function decideAfterAttempt(input: DecisionInput): DeliveryDecision {
  const responseClass = classifyResponse(input.outcome);
  if (responseClass === "delivered") return { kind: "delivered" };
  if (responseClass === "disable") return { kind: "disable" };
  const next = nextAttempt(input);
  return next.kind === "dead" ? { kind: "dead" } : { kind: "retry", atMs: next.atMs };
}

/** A test notification makes one attempt: delivered on 2xx, otherwise over. It never disables the config. */
export function decideAfterTestAttempt(outcome: AttemptOutcome): DeliveryDecision {
  return classifyResponse(outcome) === "delivered" ? { kind: "delivered" } : { kind: "dead" };
}

/** Most of a receiver's answer that is kept (Svix keeps 20 000 characters). */
export const MAX_RESPONSE_BODY_BYTES = 20 * 1024;

/**
 * The receiver's answer as stored: UTF-8 text of at most MAX_RESPONSE_BODY_BYTES, cut on a character
 * boundary so the stored text is never a broken sequence.
 */
export function storedResponseBody(bytes: Uint8Array): string {
  if (bytes.length <= MAX_RESPONSE_BODY_BYTES) return Buffer.from(bytes).toString("utf8");
  let end = MAX_RESPONSE_BODY_BYTES;
  // Step back over continuation bytes (10xxxxxx) to the start of the character that was cut.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return Buffer.from(bytes.subarray(0, end)).toString("utf8");
}

/** A one-line description of a failed attempt, for `last_error` and the attempt log. */
export function describeFailure(outcome: AttemptOutcome): string | undefined {
  if ("error" in outcome) return outcome.error;
  if (outcome.status >= 200 && outcome.status <= 299) return undefined;
  if (outcome.status >= 300 && outcome.status <= 399)
    return `HTTP ${outcome.status} (redirects are not followed)`;
  if (outcome.status === 410) return "HTTP 410 Gone: the configuration was deactivated";
  return `HTTP ${outcome.status}`;
}
