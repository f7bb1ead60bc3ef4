/**
 * Reports an outcome to the gateway: POST {tx_id, outcome, reason, provider_reference} with
 * X-Rail-Signature = base64(HMAC-SHA256(RAIL_CALLBACK_SECRET, exact body bytes)).
 */
import { createHmac } from "node:crypto";
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

export function railCallbackSignature(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

/** Resolves when the gateway answered 2xx; throws with the reason otherwise. */
export async function sendRailCallback(target: CallbackTarget, s: Submission): Promise<void> {
  const body = railCallbackBody(s);
  const res = await fetch(target.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-rail-signature": railCallbackSignature(target.secret, body),
    },
    body,
    redirect: "error",
    signal: AbortSignal.timeout(target.timeoutMs),
  });
  const answer = await res.text().catch(() => "");
  if (res.status < 200 || res.status > 299) {
    throw new Error(`callback answered ${res.status}: ${answer.slice(0, 200)}`);
  }
}
