/** The intake's metric: messages on the events topic refused because the ledger did not sign them. */
import type { RefusalReason } from "@payouts/platform/events/event-signature";
import { payoutsMeter } from "@payouts/platform/telemetry/payouts-meter";

export function createRefusedEventCounter(): (reason: RefusalReason) => void {
  const refused = payoutsMeter().createCounter("payouts.webhooks.events.refused", {
    description:
      "Messages on the transaction events topic refused unsigned or badly signed, by reason (unsigned, unknown_key, bad_signature, no_keys)",
  });
  return (reason) => refused.add(1, { reason });
}
