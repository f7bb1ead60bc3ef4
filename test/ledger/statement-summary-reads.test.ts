/**
 * An open day's summary is the same however many reads it takes, on real PostgreSQL: a day written by
 * `seedStatementDay` (payouts with fee lines, credits between) summarised in one read, in reads of 1,000
 * entries and of 7, equals the summary of every line of the day read page by page.
 */

import { summariseDay } from "@payouts/ledger/internal/domain/statement-days";
import type { StatementLine } from "@payouts/ledger/internal/domain/statement-lines";
import { dayLinesPage, summarise, viewDay } from "@payouts/ledger/internal/operations/daily-statements";
import { LEDGER_MIGRATIONS } from "@payouts/ledger/ledger-service";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedStatementDay, waitForWatermark } from "../bench/statement-day-seed.js";
import { createTestDatabase } from "../support/infra.js";

const LINES = 3_000;
const PARTNER = "partner_summary_reads";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
let date: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPgDatabase({ connectionString: database.url, maxConnections: 4 });
  await migrate(db, LEDGER_MIGRATIONS);
  const seeded = await seedStatementDay(database.url, PARTNER, LINES);
  await waitForWatermark(database.url, seeded.xid, 30_000);
  date = seeded.date;
}, 120_000);

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

const plain = (s: Awaited<ReturnType<typeof summarise>>) => ({
  ...s,
  openingBalance: toDecimalString(s.openingBalance),
  closingBalance: toDecimalString(s.closingBalance),
  totalDebits: toDecimalString(s.totalDebits),
  totalCredits: toDecimalString(s.totalCredits),
});

describe("summarise", () => {
  it("gives the summary of the day's lines whatever the size of its reads", async () => {
    const view = await viewDay(db, PARTNER, date, new Date());
    const lines: StatementLine[] = [];
    let after = "";
    for (;;) {
      const page = await dayLinesPage(db, view, after, 1000);
      lines.push(...page.lines);
      if (page.lines.length === 0 || !page.nextCursor) break;
      after = page.nextCursor;
    }
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
