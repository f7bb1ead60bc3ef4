import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import {
  CLAIM_DUE_SQL,
  claimDueDeliveries,
  claimParameters,
  queueOutgrewItsPlans,
} from "@payouts/webhooks/internal/store/delivery-queue-store";
import { WEBHOOKS_MIGRATIONS } from "@payouts/webhooks/webhooks-service";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

/**
 * The claim's cost must not grow with the backlog: claiming the same handful of rows reads about as many
 * buffers with a million pending rows as with a thousand, whichever plan PostgreSQL runs it with:
 *
 * - a custom plan (the parameters' values known), measured with EXPLAIN (ANALYZE, BUFFERS) on the
 *   statement text the store runs, whose planned cost must stay low too (past jit_above_cost every claim
 *   would be compiled first);
 * - a generic plan (`plan_cache_mode = force_generic_plan`, a prepared statement), which a prepared
 *   statement switches to after five executions when it looks no dearer than the custom ones;
 * - the claim exactly as the dispatcher runs it: `claimDueDeliveries` through the service's database layer
 *   (which prepares statements per connection), planned per call when `queueOutgrewItsPlans` says so (the
 *   dispatcher asks once per poll interval, here before each claim). The reference is a connection that claimed ten times from
 *   the thousand rows; then a connection claims ten times from a quiet queue of sixty pending rows
 *   among 19,940 delivered ones (so the statistics say a pending row is rare), the backlog
 *   grows to a million rows, and it claims again before ANALYZE (autovacuum is off here) has seen them
 *   (one claim after each 100,000 rows: the most any of them read counts), and once more after it. Its buffers are the database's own counters of the transaction.
 *
 * Every claim runs in a transaction rolled back afterwards. The queue's shape is a dispatcher's under load:
 * three partners with two live receivers each and a dead receiver of the first partner; most rows are due
 * (the oldest first), the dead receiver's (a third of all) wait for their next retry; a transaction has two
 * events stored together, the later one waiting for the earlier; a few claims of another worker are in
 * flight.
 */
const CLAIM = { leaseMs: 12_000, workerId: "whw_budget", limit: 64, perConfigLimit: 4 } as const;
const SMALL = 1_000;
const LARGE = 1_000_000;
/** The queue a dispatcher's connection first claims from (its in-flight rows are among the first). */
const TINY = 60;
/** Rows in the table then: the first TINY pending, the others delivered. */
const QUIET = 20_000;
/** The backlog grows by this many rows between two claims. */
const GROWTH_STEP = 100_000;

const rowId = (i: number) => `whd_${String(i).padStart(9, "0")}`;

interface ClaimCost {
  readonly buffers: number;
  readonly claimed: number;
}

interface ExplainedCost extends ClaimCost {
  /** The planner's estimate: past jit_above_cost (100,000 by default) every claim is compiled first. */
  readonly plannedCost: number;
}

async function seedConfigs(client: pg.Client): Promise<void> {
  await client.query(
    `INSERT INTO webhooks.configs (config_id, partner_id, url, events)
     SELECT 'whc_' || c, 'ptn_' || (c % 3), 'https://receiver-' || c || '.example/hook', ARRAY['*']
       FROM generate_series(0, 6) AS c`,
  );
}

/** Rows `from`..`to` of the queue; config 6 is the dead receiver, whose rows are due again only in an hour. */
async function seedRows(client: pg.Client, from: number, to: number): Promise<void> {
  await client.query(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
       body, status, attempts, next_attempt_at, created_at, updated_at)
     SELECT 'whd_' || lpad(i::text, 9, '0'), 'evt_' || i, 'whc_' || cfg, 'ptn_' || (cfg % 3),
            'tx_' || (i / 2), i % 2, 'transaction.succeeded', '\\x7b7d'::bytea, 'pending',
            CASE WHEN cfg = 6 THEN 3 ELSE 0 END,
            CASE WHEN cfg = 6 THEN now() + interval '1 hour'
                 ELSE now() - ($3::int - (i / 2) * 2) * interval '1 millisecond' END,
            now(), now()
       FROM generate_series($1::int, $2::int) AS i,
            LATERAL (SELECT CASE WHEN i % 3 = 0 THEN 6 ELSE (i / 2) % 6 END AS cfg) AS pick`,
    [from, to, LARGE],
  );
}

async function seedInFlight(client: pg.Client): Promise<void> {
  await client.query(
    `UPDATE webhooks.deliveries SET status = 'delivering', attempts = 1, claimed_by = 'whw_other',
            lease_expires_at = now() + interval '1 hour'
      WHERE delivery_id IN (SELECT delivery_id FROM webhooks.deliveries
                             WHERE status = 'pending' AND config_id <> 'whc_6' AND sequence = 0
                             ORDER BY delivery_id LIMIT 6)`,
  );
}

async function vacuumAnalyze(client: pg.Client): Promise<void> {
  await client.query("VACUUM ANALYZE webhooks.deliveries");
  await client.query("VACUUM ANALYZE webhooks.configs");
}

interface PlanNode {
  readonly "Shared Hit Blocks": number;
  readonly "Shared Read Blocks": number;
  readonly "Actual Rows": number;
  readonly "Total Cost": number;
}

async function explained(client: pg.Client, sql: string, params?: unknown[]): Promise<ExplainedCost> {
  await client.query("BEGIN");
  try {
    const res = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
      params,
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

/** The claim with its parameters' values known to the planner. */
function customPlan(client: pg.Client): Promise<ExplainedCost> {
  return explained(client, CLAIM_DUE_SQL, claimParameters({ ...CLAIM, now: new Date() }));
}

/** The claim prepared and run with a generic plan (the parameters' values unknown to the planner). */
async function genericPlan(client: pg.Client): Promise<ExplainedCost> {
  await client.query("SET plan_cache_mode = force_generic_plan");
  await client.query(`PREPARE budget_claim AS ${CLAIM_DUE_SQL}`);
  try {
    const literal = (value: unknown) =>
      value instanceof Date
        ? client.escapeLiteral(value.toISOString())
        : Array.isArray(value)
          ? client.escapeLiteral(`{${value.join(",")}}`)
          : typeof value === "number"
            ? String(value)
            : client.escapeLiteral(String(value));
    const args = claimParameters({ ...CLAIM, now: new Date() }).map(literal);
    return await explained(client, `EXECUTE budget_claim(${args.join(", ")})`);
  } finally {
    await client.query("DEALLOCATE budget_claim");
    await client.query("RESET plan_cache_mode");
  }
}

class RolledBack extends Error {}

/** Buffers the current transaction has asked for from the webhooks schema's tables and indexes. */
const BLOCKS_FETCHED_SQL = `SELECT coalesce(sum(pg_stat_get_xact_blocks_fetched(c.oid)), 0)::bigint AS blocks
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'webhooks'`;

interface DispatcherCost extends ClaimCost {
  readonly planned: "prepared" | "per-call";
}

/** One claim as the dispatcher makes it (claimDueDeliveries through the database layer), rolled back. */
async function dispatcherClaim(db: Database): Promise<DispatcherCost> {
  let cost: DispatcherCost | undefined;
  await db
    .transaction(async (tx) => {
      const blocks = async () =>
        Number((await tx.query<{ blocks: string }>(BLOCKS_FETCHED_SQL)).rows[0]!.blocks);
      const planned = (await queueOutgrewItsPlans(tx)) ? "per-call" : "prepared";
      const before = await blocks();
      const claimed = await claimDueDeliveries(tx, { ...CLAIM, now: new Date(), planned });
      cost = { buffers: (await blocks()) - before, claimed: claimed.length, planned };
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return cost!;
}

interface Measured {
  readonly custom: ExplainedCost;
  readonly generic: ExplainedCost;
  readonly dispatcher: DispatcherCost;
}

async function warmUp(db: Database): Promise<DispatcherCost> {
  let cost: DispatcherCost | undefined;
  for (let i = 0; i < 10; i++) cost = await dispatcherClaim(db);
  return cost!;
}

async function measure(): Promise<{ small: Measured; stale: DispatcherCost[]; large: Measured }> {
  const database = await createTestDatabase();
  const open = () =>
    createPgDatabase({ connectionString: database.url, applicationName: "claim-budget", maxConnections: 1 });
  const client = new pg.Client({ connectionString: database.url });
  const pools: Database[] = [];
  try {
    pools.push(open());
    await migrate(pools[0]!, WEBHOOKS_MIGRATIONS);
    await client.connect();
    // The statistics are those of the last ANALYZE this test runs, none by autovacuum in between.
    await client.query("ALTER TABLE webhooks.deliveries SET (autovacuum_enabled = false)");
    await seedConfigs(client);
    await seedRows(client, 1, SMALL);
    await seedInFlight(client);
    await vacuumAnalyze(client);
    const small = {
      custom: await customPlan(client),
      generic: await genericPlan(client),
      dispatcher: await warmUp(pools[0]!),
    };

    // A dispatcher that started on a quiet queue: its connection prepared the claim over a few dozen rows,
    // the statistics saw only delivered rows and the other worker's claims (no pending row at all).
    await client.query("DELETE FROM webhooks.deliveries WHERE delivery_id > $1", [rowId(SMALL)]);
    await seedRows(client, SMALL + 1, QUIET);
    await client.query(
      "UPDATE webhooks.deliveries SET status = 'delivered', delivered_at = now() WHERE status = 'pending'",
    );
    await client.query("VACUUM (FULL, ANALYZE) webhooks.deliveries");
    await client.query(
      "UPDATE webhooks.deliveries SET status = 'pending', delivered_at = NULL WHERE delivery_id <= $1 AND status = 'delivered'",
      [rowId(TINY)],
    );
    const dispatcher = open();
    pools.push(dispatcher);
    await warmUp(dispatcher);
    // Then a backlog arrives, faster than autovacuum's next ANALYZE, and the dispatcher keeps claiming.
    const stale: DispatcherCost[] = [];
    for (let from = QUIET + 1; from <= LARGE; from += GROWTH_STEP) {
      await seedRows(client, from, Math.min(LARGE, from + GROWTH_STEP - 1));
      stale.push(await dispatcherClaim(dispatcher));
    }

    await vacuumAnalyze(client);
    const large = {
      custom: await customPlan(client),
      generic: await genericPlan(client),
      dispatcher: await dispatcherClaim(dispatcher),
    };
    return { small, stale, large };
  } finally {
    await client.end();
    for (const pool of pools) await pool.close();
    await database.drop();
  }
}

describe("claim budget", () => {
  it("claims from a million pending rows reading at most twice the buffers a thousand need, with any plan", async () => {
    const { small, stale, large } = await measure();
    const staleMost = Math.max(...stale.map((cost) => cost.buffers));
    console.info(
      `claim buffers at ${SMALL} / ${LARGE} pending rows: custom plan ${small.custom.buffers} / ` +
        `${large.custom.buffers} (planned cost ${small.custom.plannedCost} / ${large.custom.plannedCost}); ` +
        `generic plan ${small.generic.buffers} / ${large.generic.buffers}; as the dispatcher runs it ` +
        `${small.dispatcher.buffers} (${small.dispatcher.planned}) / at most ${staleMost} before ANALYZE ` +
        `(${stale.map((cost) => cost.planned).join(", ")}), ${large.dispatcher.buffers} after (${large.dispatcher.planned})`,
    );
    // Six live receivers, four slots each, less the six claims of the other worker.
    for (const cost of [
      small.custom,
      small.generic,
      small.dispatcher,
      ...stale,
      large.custom,
      large.generic,
      large.dispatcher,
    ])
      expect(cost.claimed).toBe(18);
    expect(large.custom.buffers).toBeLessThanOrEqual(2 * small.custom.buffers);
    expect(large.custom.plannedCost).toBeLessThanOrEqual(2 * small.custom.plannedCost);
    expect(large.generic.buffers).toBeLessThanOrEqual(2 * small.generic.buffers);
    expect(staleMost).toBeLessThanOrEqual(2 * small.dispatcher.buffers);
    expect(large.dispatcher.buffers).toBeLessThanOrEqual(2 * small.dispatcher.buffers);
    // The prepared claim is the one used whenever the statistics describe the table.
    expect([small.dispatcher.planned, large.dispatcher.planned]).toEqual(["prepared", "prepared"]);
  }, 600_000);
});
