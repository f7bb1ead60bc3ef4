/**
 * Where getQuotation's binding price comes from: the pricing service. The ledger prices nothing itself
 * (fees, FX rates and corridor limits are pricing's); it asks for the quote it then stores, so the gateway
 * makes one call for getQuotation instead of three.
 */
import type { Quote } from "@payouts/proto/payouts/common/v1/common_pb";

export interface PriceRequest {
  readonly partnerId: string;
  readonly countryCode: string;
  /** The transaction's currency. */
  readonly currency: string;
  /** The local amount asked for, as the caller sent it (pricing checks it). */
  readonly amount: string;
}

/** Bounds of one pricing call: the caller's cancellation and what is left of its deadline. */
export interface PriceCall {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number | undefined;
}

export interface BindingPricer {
  /**
   * The binding quote, or pricing's refusal as pricing gave it (INVALID_AMOUNT, AMOUNT_OUT_OF_RANGE, …);
   * SERVICE_UNAVAILABLE when pricing does not answer.
   */
  price(request: PriceRequest, call?: PriceCall): Promise<Quote>;
}
