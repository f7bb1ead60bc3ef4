/**
 * The cost of a page of a day's statement lines does not grow with the lines before it, on real
 * PostgreSQL: a day of 10,500 lines written through the ledger's tables (the bench's seed), read as an
 * open day 200 lines a page. The page query of page 50 reads (EXPLAIN ANALYZE, shared buffers) at most
 * twice what page 1's does, and every page's running balances are those of the day read in one pass.
 */

import { summarise, viewDay } from "@payouts/ledger/internal/operations/daily-statements";
import { decodeDayCursor } from "@payouts/ledger/internal/operations/day-cursor";
import { dayEntriesQuery } from "@payouts/ledger/internal/store/statement-day-store";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { readDayPages, useSeededStatementDay } from "./support/seeded-statement-day.js";

const LINES = 10_500;
const PAGE = 200;
const PARTNER = "partner_page_budget";
const day = useSeededStatementDay(PARTNER, LINES);

interface Plan {
  readonly "Shared Hit Blocks": number;
  readonly "Shared Read Blocks": number;
}

/** Shared buffers (hit + read) the page query after `cursor` touches, as PostgreSQL counts them. */
async function pageBuffers(cursor: string): Promise<number> {
  const { db, date } = day;
  const view = await viewDay(db, PARTNER, date, new Date());
  if (!view.scope) throw new Error("the seeded day has no scope");
  const from = cursor ? decodeDayCursor(view, cursor) : undefined;
  // The query dayLinesPage runs: the sum before the page only when the cursor carries no trusted balance.
  const query = dayEntriesQuery(
    view.scope,
    from?.position,
    PAGE + 1,
    from !== undefined && !from.balanceBefore,
  );
  const res = await db.query<{ "QUERY PLAN": { Plan: Plan }[] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${query.text}`,
    query.values,
  );
  const plan = res.rows[0]!["QUERY PLAN"][0]!.Plan;
  return plan["Shared Hit Blocks"] + plan["Shared Read Blocks"];
}

describe("a page of an open day's statement lines", () => {
  it("reads at page 50 at most twice the buffers of page 1, with the balances of one pass", async () => {
    const { db, date } = day;
    const view = await viewDay(db, PARTNER, date, new Date());
    expect(view.status).toBe("open");
    const { lines, cursors } = await readDayPages(db, view, PAGE);
    expect(lines).toHaveLength(LINES);
    // Every running balance is the one before it plus its amount, from the opening balance on.
    let balance = view.opening;
    for (const line of lines) {
      balance = balance.plus(line.amountUsd);
      expect(toDecimalString(line.balanceAfter)).toBe(toDecimalString(balance));
    }
    const summary = await summarise(db, view.scope, view.opening);
    expect(summary.lineCount).toBe(LINES);
    expect(toDecimalString(summary.closingBalance)).toBe(toDecimalString(balance));

    const cursor50 = cursors[49]!;
    expect(decodeDayCursor(view, cursor50).balanceBefore).toBeDefined();
    const first = await pageBuffers(cursors[0]!);
    const fiftieth = await pageBuffers(cursor50);
    expect(first).toBeGreaterThan(0);
    expect(fiftieth).toBeLessThanOrEqual(2 * first);
  }, 120_000);
});
