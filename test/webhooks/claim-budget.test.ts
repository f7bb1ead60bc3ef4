import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { CLAIM_DUE_SQL, claimParameters } from "@payouts/webhooks/internal/store/delivery-queue-store";
import { WEBHOOKS_MIGRATIONS } from "@payouts/webhooks/webhooks-service";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

/**
 * The claim's cost must not grow with the backlog: claiming the same handful of rows reads about as many
 * buffers with a million pending rows as with a thousand. Measured with EXPLAIN (ANALYZE, BUFFERS) on the
 * statement text the store runs, inside a transaction rolled back afterwards.
 *
 * The queue's shape is a dispatcher's under load: three partners with two live receivers each and a
 * dead receiver of the first partner; most rows are due (the oldest first), the dead receiver's (a third
 * of all) wait for their next retry; a transaction has two events stored together, the later one waiting
 * for the earlier; a few claims of another worker are in flight.
 */
const CLAIM = { leaseMs: 12_000, workerId: "whw_budget", limit: 64, perConfigLimit: 4 } as const;

interface ClaimCost {
  readonly buffers: number;
  /** The planner's estimate: past jit_above_cost (100,000 by default) every claim is compiled first. */
  readonly plannedCost: number;
  readonly claimed: number;
}

async function seed(client: pg.Client, rows: number): Promise<void> {
  await client.query(
    `INSERT INTO webhooks.configs (config_id, partner_id, url, events)
     SELECT 'whc_' || c, 'ptn_' || (c % 3), 'https://receiver-' || c || '.example/hook', ARRAY['*']
       FROM generate_series(0, 6) AS c`,
  );
  // Config 6 is the dead receiver: its rows are due again only in an hour.
  await client.query(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
       body, status, attempts, next_attempt_at, created_at, updated_at)
     SELECT 'whd_' || lpad(i::text, 9, '0'), 'evt_' || i, 'whc_' || cfg, 'ptn_' || (cfg % 3),
            'tx_' || (i / 2), i % 2, 'transaction.succeeded', '\\x7b7d'::bytea, 'pending',
            CASE WHEN cfg = 6 THEN 3 ELSE 0 END,
            CASE WHEN cfg = 6 THEN now() + interval '1 hour'
                 ELSE now() - ($1::int - (i / 2) * 2) * interval '1 millisecond' END,
            now(), now()
       FROM generate_series(1, $1::int) AS i,
            LATERAL (SELECT CASE WHEN i % 3 = 0 THEN 6 ELSE (i / 2) % 6 END AS cfg) AS pick`,
    [rows],
  );
  await client.query(
    `UPDATE webhooks.deliveries SET status = 'delivering', attempts = 1, claimed_by = 'whw_other',
            lease_expires_at = now() + interval '1 minute'
      WHERE delivery_id IN (SELECT delivery_id FROM webhooks.deliveries
                             WHERE status = 'pending' AND config_id <> 'whc_6' AND sequence = 0
                             ORDER BY delivery_id LIMIT 6)`,
  );
  await client.query("VACUUM ANALYZE webhooks.deliveries");
  await client.query("VACUUM ANALYZE webhooks.configs");
}

async function claimCost(client: pg.Client): Promise<ClaimCost> {
  await client.query("BEGIN");
  try {
    const res = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${CLAIM_DUE_SQL}`,
      claimParameters({ ...CLAIM, now: new Date() }),
    );
    const plan = res.rows[0]!["QUERY PLAN"][0].Plan;
    return {
      buffers: plan["Shared Hit Blocks"] + plan["Shared Read Blocks"],
      plannedCost: plan["Total Cost"],
      claimed: plan["Actual Rows"],
    };
  } finally {
    await client.query("ROLLBACK");
  }
}

interface PlanNode {
  readonly "Shared Hit Blocks": number;
  readonly "Shared Read Blocks": number;
  readonly "Actual Rows": number;
  readonly "Total Cost": number;
}

async function measure(rows: number): Promise<ClaimCost> {
  const database = await createTestDatabase();
  try {
    const db = createPgDatabase({ connectionString: database.url, applicationName: "claim-budget" });
    try {
      await migrate(db, WEBHOOKS_MIGRATIONS);
    } finally {
      await db.close();
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await seed(client, rows);
      return await claimCost(client);
    } finally {
      await client.end();
    }
  } finally {
    await database.drop();
  }
}

describe("claim budget", () => {
  it("claims from a million pending rows reading, and planned to cost, at most twice what a thousand do", async () => {
    const small = await measure(1_000);
    const large = await measure(1_000_000);
    // Six live receivers, four slots each, less the six claims of the other worker.
    expect(small.claimed).toBe(18);
    expect(large.claimed).toBe(18);
    console.info(
      `claim at 1,000 / 1,000,000 pending rows: ${small.buffers} / ${large.buffers} buffers, ` +
        `planned cost ${small.plannedCost} / ${large.plannedCost}`,
    );
    expect(large.buffers).toBeLessThanOrEqual(2 * small.buffers);
    expect(large.plannedCost).toBeLessThanOrEqual(2 * small.plannedCost);
  }, 180_000);
});
