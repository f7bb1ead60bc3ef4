/**
 * The figures that price one payout, as pricing computes them and as the ledger stores them with a
 * quote: the local amount, the rate it was converted at, its USD equivalent and the partner's fees on it.
 */
import type { Dec } from "./decimal.js";

export interface PayoutPrice {
  /** Local amount in `currency`. */
  readonly amount: Dec;
  readonly currency: string;
  /** Units of `currency` per 1 USD. */
  readonly exchangeRate: Dec;
  readonly amountUsd: Dec;
  readonly percentageFee: Dec;
  readonly fixedFee: Dec;
}
