/**
 * The amounts of one camt.053 statement, at the precision the message allows.
 *
 * Our USD amounts and balances carry up to 18 decimals (INTERNAL_SCALE: a converted payout is
 * `amount / rate`, a percentage fee is exact), while an ISO 20022 amount
 * (ActiveOrHistoricCurrencyAndAmount) has at most 5 fraction digits and 18 digits in all. Rounding each
 * figure on its own would break the sums an ERP checks (opening + credits − debits = closing, Σ entries =
 * each total), so the rule is:
 *
 * - Opening and closing balances are the exact balances rounded half-up to 5 decimals. A day's closing
 *   balance equals the next day's opening balance exactly, so the rounded ones match from day to day too.
 * - The credit and debit totals are the exact totals rounded half-up, except that one of them (the debits,
 *   or the credits where that would make the debits negative or there are no debits) is set so that
 *   opening + credits − debits = closing holds on the rounded figures.
 * - Entries carry their rounding: the k-th entry of a side is R(k) − R(k−1), where R(k) is the side's running
 *   exact sum scaled to the side's total and rounded half-up. The entries of a side then sum exactly to its
 *   total, no entry's sign changes, and none is off its exact amount by more than 0.00003 USD; entries
 *   whose amounts have 5 decimals or fewer come out exact (unless the totals above needed a nudge).
 *
 * The exact amounts stay in the JSON and CSV statements, and each entry's exact USD amount is repeated in
 * its AddtlNtryInf.
 */
import { Dec } from "@payouts/platform/money/decimal";
import type { StatementSummary } from "./statement-document.js";

export const CAMT_FRACTION_DIGITS = 5;
const CAMT_TOTAL_DIGITS = 18;
const MAX_CAMT_AMOUNT = new Dec(10).pow(CAMT_TOTAL_DIGITS - CAMT_FRACTION_DIGITS);

/** A signed figure as camt writes it: a non-negative amount and CRDT (≥ 0) or DBIT. */
export interface CamtFigure {
  amount: string;
  indicator: "CRDT" | "DBIT";
}

/** The lines did not add up to the statement's summary: the rendered file would contradict itself. */
export class StatementMismatchError extends Error {
  constructor(statementId: string, what: string) {
    super(`statement ${statementId}: ${what}`);
    this.name = "StatementMismatchError";
  }
}

/** Rounds half-up to the 5 decimals of an ISO 20022 amount. */
export function roundCamt(value: Dec): Dec {
  return value.toDecimalPlaces(CAMT_FRACTION_DIGITS, Dec.ROUND_HALF_UP);
}

/** The text of a non-negative amount already on the 5-decimal grid; refuses one with over 13 integer digits. */
export function camtAmountText(value: Dec): string {
  if (value.isNegative() || value.decimalPlaces() > CAMT_FRACTION_DIGITS) {
    throw new RangeError(`not a camt amount: ${value.toFixed()}`);
  }
  if (value.gte(MAX_CAMT_AMOUNT)) throw new RangeError(`amount too large for camt.053: ${value.toFixed()}`);
  return value.isZero() ? "0" : value.toFixed();
}

export function camtFigure(value: Dec): CamtFigure {
  return { amount: camtAmountText(value.abs()), indicator: value.isNegative() ? "DBIT" : "CRDT" };
}

/** One side (credits or debits): entries scaled to the side's rounded total, with the rounding carried. */
class SideCarry {
  exactSoFar = new Dec(0);
  private renderedSoFar = new Dec(0);
  count = 0;

  constructor(
    readonly exactTotal: Dec,
    readonly renderedTotal: Dec,
  ) {}

  next(magnitude: Dec): Dec {
    this.count += 1;
    this.exactSoFar = this.exactSoFar.plus(magnitude);
    const running = this.exactTotal.isZero()
      ? new Dec(0)
      : roundCamt(this.exactSoFar.div(this.exactTotal).times(this.renderedTotal));
    const entry = running.minus(this.renderedSoFar);
    this.renderedSoFar = running;
    return entry;
  }
}

export class CamtStatementAmounts {
  readonly opening: Dec;
  readonly closing: Dec;
  private readonly credits: SideCarry;
  private readonly debits: SideCarry;

  constructor(private readonly summary: StatementSummary) {
    const exactCredits = new Dec(summary.total_credits_usd).abs();
    const exactDebits = new Dec(summary.total_debits_usd).abs();
    const exactOpening = new Dec(summary.opening_balance_usd);
    if (!exactOpening.plus(exactCredits).minus(exactDebits).eq(new Dec(summary.closing_balance_usd))) {
      throw new StatementMismatchError(summary.statement_id, "opening + credits − debits ≠ closing");
    }
    this.opening = roundCamt(exactOpening);
    this.closing = roundCamt(new Dec(summary.closing_balance_usd));
    const net = this.closing.minus(this.opening);
    let credits = roundCamt(exactCredits);
    let debits = roundCamt(exactDebits);
    if (!credits.minus(debits).eq(net)) {
      if (!exactDebits.isZero() && !credits.minus(net).isNegative()) debits = credits.minus(net);
      else credits = debits.plus(net);
    }
    this.credits = new SideCarry(exactCredits, credits);
    this.debits = new SideCarry(exactDebits, debits);
  }

  get totalCredits(): Dec {
    return this.credits.renderedTotal;
  }

  get totalDebits(): Dec {
    return this.debits.renderedTotal;
  }

  /** The rendered entry of a line's signed exact USD amount. */
  entry(amountUsd: string): CamtFigure {
    const exact = new Dec(amountUsd);
    const side = exact.isNegative() ? this.debits : this.credits;
    return {
      amount: camtAmountText(side.next(exact.abs())),
      indicator: exact.isNegative() ? "DBIT" : "CRDT",
    };
  }

  /** Throws StatementMismatchError unless the lines seen match the summary's count and totals exactly. */
  finish(): void {
    const { summary } = this;
    const count = this.credits.count + this.debits.count;
    if (count !== summary.line_count) {
      throw new StatementMismatchError(
        summary.statement_id,
        `${count} lines, summary says ${summary.line_count}`,
      );
    }
    for (const side of [this.credits, this.debits]) {
      if (!side.exactSoFar.eq(side.exactTotal)) {
        throw new StatementMismatchError(
          summary.statement_id,
          "line amounts do not add up to the summary's totals",
        );
      }
    }
  }
}
