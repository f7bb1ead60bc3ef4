/**
 * Rate limits of the sends a partner triggers by hand — test notifications and redeliveries — per partner
 * across every replica, so one partner cannot starve the others. Every call counts, found or not. Over the limit: 429
 * RATE_LIMIT_EXCEEDED with Retry-After.
 */
import type { Database } from "@payouts/platform/database/database";
import { createTokenBucket } from "@payouts/platform/rate-limit/token-bucket";
import { WEBHOOKS } from "../domain/result.js";
import { rejection } from "../reasons.js";
import { takeToken } from "../store/rate-bucket-store.js";

export type ManualSend = "test" | "redeliver";

export interface ManualSendLimits {
  /** Takes one send of `action` from the partner's bucket, or throws RATE_LIMIT_EXCEEDED. */
  take(partnerId: string, action: ManualSend): Promise<void>;
}

export function createManualSendLimits(
  db: Database,
  now: () => Date,
  perMinute: Readonly<Record<ManualSend, number>>,
): ManualSendLimits {
  const buckets = {
    test: createTokenBucket({ capacity: perMinute.test, refillPerMinute: perMinute.test }),
    redeliver: createTokenBucket({ capacity: perMinute.redeliver, refillPerMinute: perMinute.redeliver }),
  };
  return {
    async take(partnerId, action) {
      const result = await takeToken(db, { partnerId, action }, buckets[action], now());
      if (result.allowed) return;
      throw rejection(
        WEBHOOKS.error(
          "RATE_LIMIT_EXCEEDED",
          `${action === "test" ? "test notifications are" : "redeliveries are"} limited to ${perMinute[action]} per minute per partner`,
        ),
        { metadata: { retry_after_seconds: String(result.retryAfterSeconds) } },
      );
    },
  };
}
