import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANATOMY_ENDPOINTS, AnatomySession, sortedKeys } from "./anatomy.js";
import { COST_BUDGETS, type CostBudget } from "./anatomy-budget.js";
import { anatomyTable } from "./anatomy-table.js";
import type { CostCounts } from "./cost-counter.js";

/** A Markdown table's cells, whatever padding the formatter gave it (`|--:|` and `| ---: |` are one). */
function tableCells(markdown: string): string[][] {
  return markdown
    .split("\n")
    .filter((line) => line.trimStart().startsWith("|"))
    .map((line) =>
      line
        .trim()
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim().replace(/^(:?)-+(:?)$/, "$1-$2")),
    );
}

function asBudget(counts: CostCounts): CostBudget {
  return {
    rpcs: sortedKeys(counts.rpcs),
    sqlStatements: counts.sqlStatements,
    sqlBy: sortedKeys(counts.sqlBy),
    roundTrips: counts.roundTrips,
    transactions: counts.transactions,
    messages: counts.outboxMessages + counts.busMessages,
  };
}

describe("cost budget of each partner endpoint (RPCs, SQL, round trips, transactions, messages)", () => {
  let session: AnatomySession;
  beforeAll(async () => {
    session = await AnatomySession.start();
  });
  afterAll(async () => {
    await session?.close();
  });

  for (const endpoint of ANATOMY_ENDPOINTS) {
    it(`${endpoint} costs exactly its budget`, async () => {
      const measured = asBudget(await session.measure(endpoint));
      expect(
        measured,
        `${endpoint}: one request's cost differs from test/perf/anatomy-budget.ts. More is a regression to ` +
          "remove; less is progress: lower the budget and regenerate the table in docs/performance.md (npm run anatomy).",
      ).toEqual(COST_BUDGETS[endpoint]);
    });
  }

  it("the Cost anatomy table of docs/performance.md is what the harness measures (npm run anatomy)", async () => {
    const readme = await readFile(new URL("../../docs/performance.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Cost anatomy"));
    const measured = tableCells(anatomyTable(await session.measureAll()));
    const documented = tableCells(section).slice(0, measured.length);
    expect(documented).toEqual(measured);
  });

  it("counts a request's own statements, round trips and transactions, and nothing running beside it", async () => {
    const db = session.counter.database(session.platform.runtime.db, "probe");
    // Statements from outside the measured context, running while it runs, are not attributed to it.
    const outside = Promise.all([1, 2, 3].map(() => db.query("SELECT pg_sleep(0.01)")));
    const { counts } = await session.counter.measure(async () => {
      await db.query("SELECT 1");
      await db.transaction(async (tx) => {
        await tx.query("SELECT 2");
        await tx.exec("SELECT 3");
      });
    });
    await outside;
    expect(asBudget(counts)).toEqual({
      rpcs: {},
      sqlStatements: 3,
      sqlBy: { probe: 3 },
      roundTrips: 5,
      transactions: 1,
      messages: 0,
    });
  });
});
