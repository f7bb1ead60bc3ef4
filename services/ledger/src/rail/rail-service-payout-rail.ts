import { createClient, type Transport } from "@connectrpc/connect";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import type { PayoutRail } from "./payout-rail.js";

/** PayoutRail over the payouts.rail.v1.RailService gRPC contract (the sandbox rail speaks it). */
export function createRailServicePayoutRail(transport: Transport, timeoutMs: number): PayoutRail {
  const client = createClient(RailService, transport);
  return {
    async submit(s) {
      const res = await client.submitPayout(
        {
          txId: s.txId,
          countryCode: s.countryCode,
          currency: s.currency,
          amount: s.amount,
          destinationType: s.destinationType,
          paymentDestination: s.paymentDestination,
          paymentDestinationCode: s.paymentDestinationCode,
        },
        { timeoutMs },
      );
      return { providerReference: res.providerReference, accepted: res.accepted };
    },
    async cancel(txId, reason) {
      const res = await client.cancelPayout({ txId, reason }, { timeoutMs });
      return { cancelled: res.cancelled, providerReference: res.providerReference };
    },
  };
}
