import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import { claimDueDeliveries } from "@payouts/webhooks/internal/store/delivery-queue-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookHarness, type WebhookHarness } from "./support/webhook-harness.js";

/**
 * Fair scheduling across partners, on the claim itself against real PostgreSQL: the
 * dispatcher is stopped so each claim round below is exactly one call.
 */
describe("fair claims across partners", () => {
  let harness: WebhookHarness;

  beforeAll(async () => {
    harness = await startWebhookHarness();
    await harness.dispatcher.stop();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("claims a small partner's few due deliveries in the first round, beside a partner with thousands", async () => {
    const big = newId("ptr");
    const small = newId("ptr");
    // The big partner's backlog is older: ordered by due time alone it would fill every round.
    for (let i = 0; i < 10; i++)
      await insertDue(harness.db, big, await insertConfig(harness.db, big), 300, "1 hour");
    const smallIds = await insertDue(harness.db, small, await insertConfig(harness.db, small), 3, "1 second");

    const round = await claim(harness.db, 8);
    expect(round).toHaveLength(8);
    expect(
      round
        .filter((c) => c.partner_id === small)
        .map((c) => c.delivery_id)
        .sort(),
    ).toEqual([...smallIds].sort());
    // The rest of the slots are not left idle: the big partner uses them.
    expect(round.filter((c) => c.partner_id === big)).toHaveLength(5);
  });

  it("gives the next free slot to the partner with fewer deliveries in flight", async () => {
    await harness.db.query("DELETE FROM webhooks.deliveries");
    const busy = newId("ptr");
    const waiting = newId("ptr");
    for (let i = 0; i < 8; i++)
      await insertDue(harness.db, busy, await insertConfig(harness.db, busy), 50, "1 hour");
    const first = await claim(harness.db, 16);
    expect(first.every((c) => c.partner_id === busy)).toBe(true);
    expect(first).toHaveLength(16);

    const later = await insertDue(
      harness.db,
      waiting,
      await insertConfig(harness.db, waiting),
      2,
      "1 second",
    );
    // The busy partner's configurations have room (2 of 4 in flight each) and older rows; the waiting
    // partner, with nothing in flight, still ranks first.
    const next = await claim(harness.db, 1);
    expect(next.map((c) => c.delivery_id)).toEqual([later[0]]);
  });
});

function claim(db: Queryable, limit: number) {
  return claimDueDeliveries(db, {
    now: new Date(),
    leaseMs: 12_000,
    workerId: "whw_fairness",
    limit,
    perConfigLimit: 4,
  });
}

async function insertConfig(db: Queryable, partnerId: string): Promise<string> {
  const configId = newId("whc");
  await db.query(
    `INSERT INTO webhooks.configs (config_id, partner_id, url, events) VALUES ($1, $2, 'http://127.0.0.1:9/r', '{*}')`,
    [configId, partnerId],
  );
  return configId;
}

/** `count` pending deliveries of distinct transactions, due `age` ago, in due order. */
async function insertDue(
  db: Queryable,
  partnerId: string,
  configId: string,
  count: number,
  age: string,
): Promise<string[]> {
  const { rows } = await db.query<{ delivery_id: string }>(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body,
       next_attempt_at)
     SELECT $1 || '_' || lpad(i::text, 5, '0'), $1 || '_evt_' || i, $2, $3, $1 || '_tx_' || i, 2,
            'transaction.success', '\\x7b7d'::bytea, now() - $5::interval + i * interval '1 millisecond'
       FROM generate_series(1, $4::int) AS i
     RETURNING delivery_id`,
    [newId("whd"), configId, partnerId, count, age],
  );
  return rows.map((r) => r.delivery_id).sort();
}
