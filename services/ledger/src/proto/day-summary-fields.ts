/**
 * A closed day's summary as the fields the proto messages that carry it name alike (the daily statement,
 * the statement.closed event): balances and totals as full-precision decimal strings.
 */
import { toDecimalString } from "@payouts/platform/money/decimal";
import type { DaySummary } from "../domain/statement-days.js";

export function daySummaryFields(s: DaySummary) {
  return {
    openingBalanceUsd: toDecimalString(s.openingBalance),
    closingBalanceUsd: toDecimalString(s.closingBalance),
    lineCount: s.lineCount,
    totalDebitsUsd: toDecimalString(s.totalDebits),
    totalCreditsUsd: toDecimalString(s.totalCredits),
    sha256: s.sha256,
  };
}
