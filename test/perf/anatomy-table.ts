/** The cost anatomy as a Markdown table (the "Cost anatomy" section of docs/performance.md). */
import { ANATOMY_ENDPOINTS, ANATOMY_ROUTES, type Anatomy, sortedKeys } from "./anatomy.js";
import { totalRpcs } from "./cost-counter.js";

export function anatomyTable(anatomy: Anatomy): string {
  const lines = [
    "| endpoint | route | RPCs | RPCs by method | SQL statements | SQL by sender | DB round trips | DB transactions | outbox (Kafka) messages |",
    "|---|---|--:|---|--:|---|--:|--:|--:|",
  ];
  for (const endpoint of ANATOMY_ENDPOINTS) {
    const c = anatomy[endpoint];
    const byMethod =
      Object.entries(sortedKeys(c.rpcs))
        .map(([method, n]) => (n === 1 ? method : `${method} ×${n}`))
        .join(", ") || "—";
    const bySender =
      Object.entries(sortedKeys(c.sqlBy))
        .map(([user, n]) => `${user} ${n}`)
        .join(", ") || "—";
    const messages = c.outboxMessages + c.busMessages;
    lines.push(
      `| ${endpoint} | \`${ANATOMY_ROUTES[endpoint].route}\` | ${totalRpcs(c)} | ${byMethod} | ${c.sqlStatements} | ${bySender} | ${c.roundTrips} | ${c.transactions} | ${messages} |`,
    );
  }
  return lines.join("\n");
}

/** Every endpoint's statements in the order one request sends them, as Markdown. */
export function anatomySqlListing(anatomy: Anatomy): string {
  return ANATOMY_ENDPOINTS.map((endpoint) => {
    const statements = anatomy[endpoint].sql;
    const body = statements.length === 0 ? "(none)" : statements.map((line) => `    ${line}`).join("\n");
    return `### ${endpoint}\n\n${body}\n`;
  }).join("\n");
}
