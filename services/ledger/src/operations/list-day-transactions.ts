/**
 * One page of a partner's reconciliation view of a day (its statement time zone): the transactions it
 * created that day, oldest first, each with its status now and the statement lines it produced.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec } from "@payouts/platform/money/decimal";
import { type DayTransactionLines, linesByTransaction } from "../domain/day-transactions.js";
import { LEDGER, ledgerFailure } from "../domain/ledger-failure.js";
import { decodeCursor, encodeCursor } from "../domain/list-cursor.js";
import { payoutFee } from "../domain/posting-rules.js";
import { addDays, hasStarted, periodOf, type StatementPeriod, validDate } from "../domain/statement-days.js";
import { feedPageSize } from "../domain/statement-lines.js";
import { entriesOfTransactions, transactionsCreatedIn } from "../store/day-transactions-store.js";
import { closedDays, edgeClosedDay } from "../store/statement-day-store.js";
import type { StoredTransaction } from "../store/transaction-store.js";
import { getTimeZone } from "./daily-statements.js";

export interface DayTransaction extends DayTransactionLines {
  readonly transaction: StoredTransaction;
  readonly feeUsd: Dec | undefined;
}

export interface DayTransactionsPage {
  readonly period: StatementPeriod;
  readonly transactions: DayTransaction[];
  /** Position of the last transaction; `after` when none is new; undefined when there is none. */
  readonly nextCursor: string | undefined;
}

export async function listDayTransactions(
  db: Queryable,
  request: { partnerId: string; date: string; after: string; limit: number },
  now: Date,
): Promise<DayTransactionsPage> {
  const date = validDate(request.date);
  const limit = feedPageSize(request.limit);
  const after = request.after ? decodeCursor(request.after, "after", "ListDayTransactions") : undefined;
  const period = await periodOfPartnerDay(db, request.partnerId, date);
  if (!hasStarted(period, now)) {
    throw ledgerFailure(LEDGER.of("STATEMENT_DAY_NOT_STARTED", date, period.timeZone));
  }
  const transactions = await transactionsCreatedIn(db, request.partnerId, period, after, limit);
  const [entries, lastClosed] = await Promise.all([
    entriesOfTransactions(
      db,
      transactions.map((t) => t.txId),
    ),
    edgeClosedDay(db, request.partnerId, "last"),
  ]);
  const firstOpenDay = lastClosed ? addDays(lastClosed.date, 1) : undefined;
  const lines = linesByTransaction(entries, period.timeZone, firstOpenDay);
  const last = transactions.at(-1);
  return {
    period,
    transactions: transactions.map((transaction) => ({
      transaction,
      feeUsd: transaction.quote ? payoutFee(transaction.quote) : undefined,
      ...(lines.get(transaction.txId) ?? { lines: [], balanceEffect: new Dec(0) }),
    })),
    nextCursor: last ? encodeCursor(last) : request.after || undefined,
  };
}

/** The day's period: as it closed (its zone then), or in the partner's zone now while it is open. */
async function periodOfPartnerDay(db: Queryable, partnerId: string, date: string): Promise<StatementPeriod> {
  const [closed] = await closedDays(db, partnerId, date, date);
  if (closed) return { date, timeZone: closed.timeZone, start: closed.periodStart, end: closed.periodEnd };
  return periodOf(date, await getTimeZone(db, partnerId));
}
