/**
 * Reports an outcome to the gateway: POST {tx_id, outcome, reason, provider_reference} with
 * X-Rail-Timestamp (Unix seconds) and X-Rail-Signature = base64(HMAC-SHA256(RAIL_CALLBACK_SECRET,
 * "<timestamp>.<exact body bytes>")), signed anew on every attempt so that a retry is never stale.
 */
import {
  RAIL_SIGNATURE_HEADER,
  RAIL_TIMESTAMP_HEADER,
  railCallbackSignature,
  railCallbackTimestamp,
} from "@payouts/platform/signing/rail-callback-signature";
import type { Submission } from "../store/submission-store.js";

export interface CallbackTarget {
  readonly url: string;
  readonly secret: string;
  readonly timeoutMs: number;
}

export function railCallbackBody(
  s: Pick<Submission, "txId" | "outcome" | "reason" | "providerReference">,
): string {
  return JSON.stringify({
    tx_id: s.txId,
    outcome: s.outcome,
    reason: s.reason,
    provider_reference: s.providerReference,
  });
}

/** The headers of one attempt to send `body` at `now`. */
export function railCallbackHeaders(secret: string, body: string, now: Date): Record<string, string> {
  const timestamp = railCallbackTimestamp(now);
  return {
    "content-type": "application/json",
    [RAIL_TIMESTAMP_HEADER]: timestamp,
    [RAIL_SIGNATURE_HEADER]: railCallbackSignature(secret, timestamp, body),
  };
}

/** Resolves when the gateway answered 2xx; throws with the reason otherwise. */
export async function sendRailCallback(target: CallbackTarget, s: Submission): Promise<void> {
  const body = railCallbackBody(s);
  const res = await fetch(target.url, {
    method: "POST",
    headers: railCallbackHeaders(target.secret, body, new Date()),
    body,
    redirect: "error",
    signal: AbortSignal.timeout(target.timeoutMs),
  });
  const answer = await res.text().catch(() => "");
  if (res.status < 200 || res.status > 299) {
    throw new Error(`callback answered ${res.status}: ${answer.slice(0, 200)}`);
  }
}
