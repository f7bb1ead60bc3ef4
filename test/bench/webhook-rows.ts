/** Reads of the dispatcher's delivery table in the run's database (the noisy-neighbour scenario's backlog). */
import pg from "pg";

/** Waits until `expected` delivery rows of these configs are stored; answers how many and when (performance.now). */
export async function waitForRows(
  databaseUrl: string,
  configIds: readonly string[],
  expected: number,
  limitSeconds: number,
): Promise<{ stored: number; storedAt?: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = performance.now() + limitSeconds * 1000;
    let stored = 0;
    while (performance.now() < deadline) {
      const res = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM webhooks.deliveries WHERE config_id = ANY($1)",
        [configIds],
      );
      stored = Number(res.rows[0]?.n ?? 0);
      if (stored >= expected) return { stored, storedAt: performance.now() };
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return { stored };
  } finally {
    await client.end();
  }
}

/** Delivery rows of these configs by status. */
export async function countByStatus(
  databaseUrl: string,
  configIds: readonly string[],
): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const res = await client.query<{ status: string; n: string }>(
      "SELECT status, count(*) AS n FROM webhooks.deliveries WHERE config_id = ANY($1) GROUP BY status ORDER BY status",
      [configIds],
    );
    return Object.fromEntries(res.rows.map((r) => [r.status, Number(r.n)]));
  } finally {
    await client.end();
  }
}
