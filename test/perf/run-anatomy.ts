/**
 * `npm run anatomy`: prints the cost anatomy of the partner API as Markdown (needs TEST_DATABASE_URL,
 * like the integration tests). The table goes into test/bench/README.md; the budgets of
 * anatomy-budget.ts must match it.
 */
import { AnatomySession } from "./anatomy.js";
import { anatomyTable } from "./anatomy-table.js";

const databaseServerUrl = process.env.TEST_DATABASE_URL;
if (!databaseServerUrl) {
  process.stderr.write("TEST_DATABASE_URL must name a PostgreSQL server (postgres://user@host:port/db)\n");
  process.exit(2);
}
const session = await AnatomySession.start({ databaseServerUrl });
try {
  process.stdout.write(`${anatomyTable(await session.measureAll())}\n`);
} finally {
  await session.close();
}
