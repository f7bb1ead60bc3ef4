import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { LedgerFailure } from "../domain/ledger-failure.js";
import type { BindingPricer } from "./binding-pricer.js";

/** Codes of a call that got no answer from pricing (down, unreachable, too slow, died mid-call). */
const UNANSWERED: ReadonlySet<Code> = new Set([
  Code.Unavailable,
  Code.DeadlineExceeded,
  Code.Aborted,
  Code.Canceled,
]);

/** BindingPricer over payouts.pricing.v1.PricingService/CreateQuote, called as the `ledger` identity. */
export function createPricingServicePricer(transport: Transport): BindingPricer {
  const client = createClient(PricingService, transport);
  return {
    async price(request, call = {}) {
      let quote: Awaited<ReturnType<typeof client.createQuote>>["quote"];
      try {
        ({ quote } = await client.createQuote(request, {
          ...(call.signal ? { signal: call.signal } : {}),
          ...(call.timeoutMs !== undefined ? { timeoutMs: call.timeoutMs } : {}),
        }));
      } catch (error) {
        throw pricingFailure(error);
      }
      if (!quote) throw new Error("pricing answered no quote");
      return quote;
    },
  };
}

/**
 * What the ledger answers when pricing failed:
 * - a documented refusal (an ErrorDetail: INVALID_AMOUNT, AMOUNT_OUT_OF_RANGE, pricing's own
 *   SERVICE_UNAVAILABLE when its database is down, …) is relayed as pricing gave it — code, message,
 *   reason, field and metadata — without pricing's response headers;
 * - no answer at all is the ledger's SERVICE_UNAVAILABLE (retry_after_seconds), so the gateway answers
 *   503 with Retry-After rather than 500;
 * - anything else (pricing refusing the ledger's credential, a bug) stays an internal error.
 */
export function pricingFailure(error: unknown): unknown {
  if (!(error instanceof ConnectError)) return error;
  if (errorDetailOf(error) !== undefined) {
    const relayed = new ConnectError(error.rawMessage, error.code);
    relayed.details.push(...error.details);
    return relayed;
  }
  if (UNANSWERED.has(error.code)) {
    return new LedgerFailure("SERVICE_UNAVAILABLE", "the pricing service did not answer; retry later");
  }
  return error;
}
