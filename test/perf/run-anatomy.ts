/**
 * `npm run anatomy`: prints the cost anatomy of the partner API as Markdown (needs TEST_DATABASE_URL,
 * like the integration tests). The table goes into docs/performance.md; the budgets of
 * anatomy-budget.ts must match it. `npm run anatomy -- --sql` adds every endpoint's statements in order.
 */
import { AnatomySession } from "./anatomy.js";
import { anatomySqlListing, anatomyTable } from "./anatomy-table.js";

const databaseServerUrl = process.env.TEST_DATABASE_URL;
if (!databaseServerUrl) {
  process.stderr.write("TEST_DATABASE_URL must name a PostgreSQL server (postgres://user@host:port/db)\n");
  process.exit(2);
}
const session = await AnatomySession.start({ databaseServerUrl });
try {
  const anatomy = await session.measureAll();
  process.stdout.write(`${anatomyTable(anatomy)}\n`);
  if (process.argv.includes("--sql")) process.stdout.write(`\n${anatomySqlListing(anatomy)}`);
} finally {
  await session.close();
}
