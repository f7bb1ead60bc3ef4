/**
 * A partner's open statement day of `lines` lines written through the ledger's tables (the bench's seed:
 * payouts with their fee lines, credits between), in a database of its own, visible below the feed's
 * watermark before the tests run.
 */
import type { StatementLine } from "@payouts/ledger/internal/domain/statement-lines";
import { dayLinesPage, type viewDay } from "@payouts/ledger/internal/operations/daily-statements";
import { LEDGER_MIGRATIONS } from "@payouts/ledger/ledger-service";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { afterAll, beforeAll } from "vitest";
import { seedStatementDay, waitForWatermark } from "../../bench/statement-day-seed.js";
import { createTestDatabase } from "../../support/infra.js";

export interface SeededStatementDay {
  readonly db: Database;
  /** The seeded day, as the partner's statements name it. */
  readonly date: string;
}

/** Seeds the day before the file's tests and drops its database after them; read the fields inside tests. */
export function useSeededStatementDay(partnerId: string, lines: number): SeededStatementDay {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  const seeded: { db?: Database; date?: string } = {};
  beforeAll(async () => {
    database = await createTestDatabase();
    seeded.db = createPgDatabase({ connectionString: database.url, maxConnections: 4 });
    await migrate(seeded.db, LEDGER_MIGRATIONS);
    const day = await seedStatementDay(database.url, partnerId, lines);
    await waitForWatermark(database.url, day.xid, 30_000);
    seeded.date = day.date;
  }, 120_000);
  afterAll(async () => {
    await seeded.db?.close();
    await database?.drop();
  });
  return {
    get db() {
      if (!seeded.db) throw new Error("the statement day is seeded in beforeAll");
      return seeded.db;
    },
    get date() {
      if (!seeded.date) throw new Error("the statement day is seeded in beforeAll");
      return seeded.date;
    },
  };
}

/** Every line of the day, `pageSize` a page, with the cursor each page was read after ("" first). */
export async function readDayPages(
  db: Database,
  view: Awaited<ReturnType<typeof viewDay>>,
  pageSize: number,
): Promise<{ lines: StatementLine[]; cursors: string[] }> {
  const lines: StatementLine[] = [];
  const cursors: string[] = [""];
  let after = "";
  for (;;) {
    const page = await dayLinesPage(db, view, after, pageSize);
    lines.push(...page.lines);
    if (page.lines.length === 0 || !page.nextCursor) break;
    after = page.nextCursor;
    cursors.push(after);
  }
  return { lines, cursors };
}
