import { Dec, parseDecimal } from "@payouts/platform/money/decimal";
import { LedgerFailure } from "./ledger-failure.js";

/**
 * The most USD one partner's balance may hold, and so the largest single credit: one quadrillion
 * (10^15). Balances are NUMERIC(38,18), which holds less than 10^20; the five orders of magnitude between
 * the two leave room for the refunds and reversals that land on a balance already at the limit, so no
 * movement the ledger accepts can overflow the column.
 */
export const MAX_BALANCE_USD = "1000000000000000";

const LIMIT = new Dec(MAX_BALANCE_USD);

/**
 * An operator credit of `amountText` is refused when it alone exceeds the limit; checked before any I/O and
 * before the stored-decimal checks, so an amount too large for any column is this refusal too.
 */
export function checkCreditAmount(amountText: string): void {
  const amount = parseDecimal(amountText);
  if (amount?.gt(LIMIT)) {
    throw new LedgerFailure("INVALID_AMOUNT", `amount_usd must be at most ${MAX_BALANCE_USD}`, "amount_usd");
  }
}

/** ...and when it would take the partner's `balance` (read under the balance lock) past the limit. */
export function checkCreditFits(balance: Dec, amount: Dec): void {
  if (balance.plus(amount).gt(LIMIT)) {
    throw new LedgerFailure(
      "BALANCE_LIMIT_EXCEEDED",
      `the balance would exceed ${MAX_BALANCE_USD} USD; at most ${LIMIT.minus(balance).toFixed()} can be credited now`,
      "amount_usd",
    );
  }
}
