/**
 * The per-batch reservation check costs the same at a batch's 10th item and at its 5,000th: the database
 * keeps each batch's share (`batches.held_usd`, CHECK ≥ 0) from the entry trigger, like an account balance,
 * instead of summing the batch's entries at every item's commit. Measured on real PostgreSQL as the buffers
 * (pg_statio) one item's `batch_payout` movement touches in the ledger's tables, not as a time.
 */
import { LEDGER_MIGRATIONS } from "@payouts/ledger/ledger-service";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

const ITEMS = 5_000;
const P = "ptr_budget";

let drop: () => Promise<void>;
let client: pg.Client;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  const db = createPgDatabase({ connectionString: database.url, maxConnections: 2 });
  await migrate(db, LEDGER_MIGRATIONS);
  await db.close();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  // Autovacuum's own reads count in the same statistics: off for these tables, so only the items are measured.
  for (const table of ["accounts", "batches", "movements", "entries", "transactions"]) {
    await client.query(`ALTER TABLE ledger.${table} SET (autovacuum_enabled = false)`);
  }
  await client.query(`
    INSERT INTO ledger.accounts (partner_id, kind)
      SELECT '${P}', k FROM unnest(ARRAY['balance', 'in_flight', 'settled', 'fees', 'funding', 'reservation']) AS k;
    BEGIN;
    INSERT INTO ledger.movements (movement_id, partner_id, kind, reference) VALUES ('mov_credit', '${P}', 'credit', 'c');
    INSERT INTO ledger.entries (movement_id, partner_id, kind, amount)
      VALUES ('mov_credit', '${P}', 'funding', -${3 * ITEMS}), ('mov_credit', '${P}', 'balance', ${3 * ITEMS});
    COMMIT;`);
  // A batch paid in full first, so the indexes the measured batch writes to are as deep at its 10th item as
  // at its 5,000th: what changes between the two is only how many items of the same batch came before.
  await fundBatch("bat_before");
  await payItems("bat_before", 1, ITEMS);
  await fundBatch("bat_measured");
}, 180_000);

afterAll(async () => {
  await client?.end();
  await drop?.();
});

async function fundBatch(batchId: string): Promise<void> {
  await client.query(`
    INSERT INTO ledger.batches (batch_id, partner_id, status, required_approvals, name_mismatch_policy,
                                reserved_usd, created_at, updated_at, funded_at)
      VALUES ('${batchId}', '${P}', 'PROCESSING', 1, 'EXCLUDE', ${ITEMS}, now(), now(), now());
    INSERT INTO ledger.transactions (tx_id, partner_id, status, country_code, currency, destination,
                                     pending_expires_at, created_at, updated_at, batch_id, item_ref)
      SELECT '${batchId}_' || i, '${P}', 'PENDING', 'BR', 'BRL', '{}', now(), now(), now(), '${batchId}', 'i' || i
        FROM generate_series(1, ${ITEMS}) AS i;
    BEGIN;
    INSERT INTO ledger.movements (movement_id, partner_id, kind, reference, batch_id)
      VALUES ('mov_reserve_${batchId}', '${P}', 'reserve', 'r', '${batchId}');
    INSERT INTO ledger.entries (movement_id, partner_id, kind, amount)
      VALUES ('mov_reserve_${batchId}', '${P}', 'balance', -${ITEMS}),
             ('mov_reserve_${batchId}', '${P}', 'reservation', ${ITEMS});
    COMMIT;`);
}

/** Items from..to of the batch each paid 1 USD from its reservation: one movement and one commit per item. */
async function payItems(batchId: string, from: number, to: number): Promise<void> {
  if (to < from) return;
  await client.query(`
    DO $$
    BEGIN
      FOR i IN ${from}..${to} LOOP
        INSERT INTO ledger.movements (movement_id, partner_id, kind, tx_id, reference, batch_id)
          VALUES ('mov_${batchId}_' || i, '${P}', 'batch_payout', '${batchId}_' || i, 'p', '${batchId}');
        INSERT INTO ledger.entries (movement_id, partner_id, kind, amount)
          VALUES ('mov_${batchId}_' || i, '${P}', 'reservation', -1), ('mov_${batchId}_' || i, '${P}', 'in_flight', 1);
        COMMIT;
      END LOOP;
    END $$;`);
}

/** Blocks read or hit in the ledger's tables and indexes so far, as the statistics collector has them. */
async function ledgerBlocks(): Promise<number> {
  await client.query("SELECT pg_stat_force_next_flush()");
  await client.query("SELECT pg_stat_clear_snapshot()");
  const res = await client.query<{ blocks: string }>(
    `SELECT sum(heap_blks_read + heap_blks_hit + COALESCE(idx_blks_read, 0) + COALESCE(idx_blks_hit, 0))::text AS blocks
       FROM pg_statio_user_tables WHERE schemaname = 'ledger'`,
  );
  return Number(res.rows[0]?.blocks ?? 0);
}

/** The blocks one item's payout movement (with its commit-time checks) touches. */
async function costOfItem(batchId: string, n: number): Promise<number> {
  const before = await ledgerBlocks();
  await payItems(batchId, n, n);
  return (await ledgerBlocks()) - before;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function vacuum(): Promise<void> {
  await client.query(
    "VACUUM ledger.accounts, ledger.batches, ledger.movements, ledger.entries, ledger.transactions",
  );
}

async function held(batchId: string): Promise<string> {
  const res = await client.query<{ held: string }>(
    "SELECT held_usd::text AS held FROM ledger.batches WHERE batch_id = $1",
    [batchId],
  );
  return res.rows[0]?.held ?? "";
}

describe("a batch item's reservation check", () => {
  it("touches as many blocks at item 5,000 as at item 10", async () => {
    // Three items at each end (their median), each group after a VACUUM so that both start with the same
    // pruned update chains of the hot rows (accounts, batch). The band, 25 blocks, allows for the indexes the
    // item writes to having grown by a level between the two ends (82 against 95 blocks has been seen),
    // while a sum over the batch's entries reads thousands at item 5,000.
    await payItems("bat_measured", 1, 9);
    await vacuum();
    const early = [];
    for (let n = 10; n <= 12; n++) early.push(await costOfItem("bat_measured", n));
    await payItems("bat_measured", 13, ITEMS - 3);
    await vacuum();
    const late = [];
    for (let n = ITEMS - 2; n <= ITEMS; n++) late.push(await costOfItem("bat_measured", n));
    const report = `items 10-12: ${early.join(", ")} blocks; items ${ITEMS - 2}-${ITEMS}: ${late.join(", ")} blocks`;
    expect(median(early), report).toBeGreaterThan(0);
    expect(median(late), report).toBeLessThanOrEqual(median(early) + 25);
    // The share the trigger keeps is exact: everything reserved was paid.
    expect(Number(await held("bat_measured"))).toBe(0);
  });

  it("refuses, in the database, to pay an item from more than its own batch holds", async () => {
    await fundBatch("bat_small");
    // The partner's reservation holds plenty (bat_small's 5,000), but bat_before holds nothing any more.
    await client.query(`INSERT INTO ledger.transactions (tx_id, partner_id, status, country_code, currency,
        destination, pending_expires_at, created_at, updated_at, batch_id, item_ref)
      VALUES ('bat_before_extra', '${P}', 'PENDING', 'BR', 'BRL', '{}', now(), now(), now(), 'bat_before', 'extra')`);
    let code = "committed";
    try {
      await client.query("BEGIN");
      await client.query(`INSERT INTO ledger.movements (movement_id, partner_id, kind, tx_id, reference, batch_id)
        VALUES ('mov_overdraw', '${P}', 'batch_payout', 'bat_before_extra', 'p', 'bat_before')`);
      await client.query(`INSERT INTO ledger.entries (movement_id, partner_id, kind, amount)
        VALUES ('mov_overdraw', '${P}', 'reservation', -1), ('mov_overdraw', '${P}', 'in_flight', 1)`);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      code = (error as { code?: string }).code ?? "unknown";
    }
    expect(code).toBe("23514");
    expect(await held("bat_before")).toBe("0.000000000000000000");
    expect(Number(await held("bat_small"))).toBe(ITEMS);
  });
});
