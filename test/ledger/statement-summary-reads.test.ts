/**
 * An open day's summary is the same however many reads it takes, on real PostgreSQL: a day written by
 * `seedStatementDay` (payouts with fee lines, credits between) summarised in one read, in reads of 1,000
 * entries and of 7, equals the summary of every line of the day read page by page.
 */

import { summariseDay } from "@payouts/ledger/internal/domain/statement-days";
import { summarise, viewDay } from "@payouts/ledger/internal/operations/daily-statements";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { readDayPages, useSeededStatementDay } from "./support/seeded-statement-day.js";

const LINES = 3_000;
const PARTNER = "partner_summary_reads";
const day = useSeededStatementDay(PARTNER, LINES);

const plain = (s: Awaited<ReturnType<typeof summarise>>) => ({
  ...s,
  openingBalance: toDecimalString(s.openingBalance),
  closingBalance: toDecimalString(s.closingBalance),
  totalDebits: toDecimalString(s.totalDebits),
  totalCredits: toDecimalString(s.totalCredits),
});

describe("summarise", () => {
  it("gives the summary of the day's lines whatever the size of its reads", async () => {
    const { db, date } = day;
    const view = await viewDay(db, PARTNER, date, new Date());
    const { lines } = await readDayPages(db, view, 1000);
    expect(lines).toHaveLength(LINES);
    const expected = plain(summariseDay(view.opening, lines));
    expect(expected.lineCount).toBe(LINES);
    for (const entriesPerRead of [20_000, 1000, 7]) {
      expect(
        plain(await summarise(db, view.scope, view.opening, entriesPerRead)),
        `${entriesPerRead}`,
      ).toEqual(expected);
    }
  }, 60_000);
});
