/**
 * The money arithmetic of a batch, exact in decimals: what funding reserves and what it lacks. Pure.
 */
import { Dec } from "@payouts/platform/money/decimal";

/** Σ of the items' totals (amount_usd + fees each). */
export function sumTotals(totals: readonly Dec[]): Dec {
  return totals.reduce((sum, t) => sum.plus(t), new Dec(0));
}

/** How much the balance lacks to fund `needed`: zero when it suffices. */
export function shortfall(balance: Dec, needed: Dec): Dec {
  return needed.gt(balance) ? needed.minus(balance) : new Dec(0);
}
