/**
 * Double-entry posting rules. Every partner has six USD accounts; a movement is a set of signed entries
 * over them that sums to exactly zero, so the sum of all of a partner's accounts is always zero and each
 * account's balance is the sum of its entries.
 *
 *   balance    what the partner may spend              never below zero
 *   in_flight  debited, submitted, not yet settled      never below zero
 *   settled    paid out to recipients (amount_usd)      never below zero
 *   fees       earned fees (percentage + fixed)         never below zero
 *   funding    contra account of partner credits       never above zero
 *   reservation funded bulk payouts not yet paid out    never below zero (nor any batch's share of it)
 */
import { Dec } from "@payouts/platform/money/decimal";

export const ACCOUNT_KINDS = ["balance", "in_flight", "settled", "fees", "funding", "reservation"] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export type MovementKind =
  | "credit"
  | "payout"
  | "settlement"
  | "reversal"
  | "refund"
  | "adjustment"
  | "reserve"
  | "batch_payout"
  | "release";

export interface Posting {
  readonly account: AccountKind;
  readonly amount: Dec;
}

export interface Movement {
  readonly kind: MovementKind;
  readonly postings: readonly Posting[];
}

/** The quoted figures a payout moves; `total` is what the partner is debited. */
export interface PayoutAmounts {
  readonly amountUsd: Dec;
  readonly percentageFee: Dec;
  readonly fixedFee: Dec;
}

/** amount_usd + percentage_fee + fixed_fee at full precision: what a payout debits from the partner balance. */
export function payoutTotal(a: PayoutAmounts): Dec {
  return a.amountUsd.plus(a.percentageFee).plus(a.fixedFee);
}

export function payoutFee(a: PayoutAmounts): Dec {
  return a.percentageFee.plus(a.fixedFee);
}

/** An operator credit: money received from the partner. */
export const creditMovement = (amountUsd: Dec): Movement => positiveTransfer("credit", amountUsd);

/**
 * An operator correction of a closed day: like a credit, but signed (a negative one takes from the
 * balance and returns to funding). The caller refuses one that would take the balance below zero.
 */
export function adjustmentMovement(amountUsd: Dec): Movement {
  if (!amountUsd.isFinite() || amountUsd.isZero())
    throw new Error(`adjustment amount must not be 0: ${amountUsd}`);
  return transfer("adjustment", amountUsd);
}

/** executePayout: the whole total leaves the spendable balance and waits in flight. */
export const payoutMovement = (a: PayoutAmounts): Movement => positiveTransfer("payout", payoutTotal(a));

/** Approval of a batch: the sum of its payable items' totals leaves the balance for the reservation. */
export const reserveMovement = (totalUsd: Dec): Movement => positiveTransfer("reserve", totalUsd);

/** One batch item's payout: its total leaves the batch's reservation (not the balance) and waits in flight. */
export const batchPayoutMovement = (a: PayoutAmounts): Movement =>
  positiveTransfer("batch_payout", payoutTotal(a));

/** Completion of a batch: what its reservation still holds returns to the balance. */
export const releaseMovement = (remainderUsd: Dec): Movement => positiveTransfer("release", remainderUsd);

/** Rail success: the in-flight total splits into the paid-out amount and the earned fees. */
export function settlementMovement(a: PayoutAmounts): Movement {
  return movement("settlement", [
    { account: "in_flight", amount: payoutTotal(a).neg() },
    { account: "settled", amount: a.amountUsd },
    { account: "fees", amount: payoutFee(a) },
  ]);
}

/** Rail failure: the in-flight total returns to the partner, fees included. */
export const reversalMovement = (a: PayoutAmounts): Movement => transfer("reversal", payoutTotal(a));

/** Refund of a successful payout: the debited total (amount and fees) is credited back. */
export function refundMovement(a: PayoutAmounts): Movement {
  return movement("refund", [
    { account: "settled", amount: a.amountUsd.neg() },
    { account: "fees", amount: payoutFee(a).neg() },
    { account: "balance", amount: payoutTotal(a) },
  ]);
}

/** The signed change a movement makes to one account (zero when the account is not touched). */
export function effectOn(m: Movement, account: AccountKind): Dec {
  return m.postings.filter((p) => p.account === account).reduce((sum, p) => sum.plus(p.amount), new Dec(0));
}

/** The movements of one amount between two accounts: out of the first, into the second. */
const TRANSFERS = {
  credit: ["funding", "balance"],
  adjustment: ["funding", "balance"],
  payout: ["balance", "in_flight"],
  reserve: ["balance", "reservation"],
  batch_payout: ["reservation", "in_flight"],
  release: ["reservation", "balance"],
  reversal: ["in_flight", "balance"],
} as const satisfies Partial<Record<MovementKind, readonly [AccountKind, AccountKind]>>;
type TransferKind = keyof typeof TRANSFERS;

function transfer(kind: TransferKind, amount: Dec): Movement {
  const [from, to] = TRANSFERS[kind];
  return movement(kind, [
    { account: from, amount: amount.neg() },
    { account: to, amount },
  ]);
}

// Zero postings are dropped (a payout without fees touches no fee account) and the rest must balance:
// this is the invariant the database re-checks at commit.
function movement(kind: MovementKind, postings: readonly Posting[]): Movement {
  const kept = postings.filter((p) => !p.amount.isZero());
  const sum = kept.reduce((acc, p) => acc.plus(p.amount), new Dec(0));
  if (!sum.isZero()) throw new Error(`${kind} movement does not balance: ${sum.toString()}`);
  if (kept.some((p) => !p.amount.isFinite())) throw new Error(`${kind} movement has a non-finite amount`);
  return { kind, postings: kept };
}

/** A transfer whose amount must be greater than 0. */
function positiveTransfer(kind: TransferKind, amount: Dec): Movement {
  if (!amount.isFinite() || !amount.gt(0)) throw new Error(`${kind} amount must be positive: ${amount}`);
  return transfer(kind, amount);
}
