import type { Database, Queryable } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createPgliteDatabase } from "@payouts/platform/database/pglite-database";
import { newId } from "@payouts/platform/ids";
import { createAttemptRecorder } from "@payouts/webhooks/internal/delivery/attempt-recorder";
import { type RecordedAttempt, recordAttempts } from "@payouts/webhooks/internal/store/delivery-queue-store";
import { storeEventDeliveries } from "@payouts/webhooks/internal/store/delivery-store";
import { WEBHOOK_MIGRATIONS } from "@payouts/webhooks/webhook-dispatcher";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

/**
 * The delivery hot path's batched statements, on both database adapters (PostgreSQL for the distributed
 * mode, PGlite for the embedded one): finished attempts are stored many per statement, each still guarded.
 */
describe.each([
  ["PostgreSQL", "postgres"],
  ["PGlite", "pglite"],
] as const)("batched webhook stores on %s", (_name, kind) => {
  let db: Database;
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    if (kind === "postgres") {
      const database = await createTestDatabase();
      db = createPgDatabase({ connectionString: database.url, applicationName: "webhook-batch-tests" });
      drop = database.drop;
    } else {
      db = await createPgliteDatabase();
    }
    await migrate(db, WEBHOOK_MIGRATIONS);
  });
  afterAll(async () => {
    await db?.close();
    await drop();
  });

  it("marks a batch of events processed and stores the fresh ones' deliveries with exact bodies, in one statement", async () => {
    const config = await insertConfig(db);
    const seen = newId("evt");
    const now = new Date("2026-11-25T01:00:00.000Z");
    const seenDelivery = newId("whd");
    const fresh = newId("evt");
    const other = newId("evt");
    const body = Buffer.from('{"tx_id":"tx_b","fee":0.50,"name":"Peña"}');
    const partner = (
      await db.query<{ partner_id: string }>("SELECT partner_id FROM webhooks.configs WHERE config_id = $1", [
        config,
      ])
    ).rows[0]!.partner_id;
    const base = {
      configId: config,
      partnerId: partner,
      txId: "tx_b",
      eventType: "transaction.success",
      body,
    };
    await storeEventDeliveries(
      db,
      [{ eventId: seen, eventType: "transaction.success", txId: "tx_a" }],
      [],
      now,
    );
    const first = newId("whd");
    const second = newId("whd");
    const counted = countingStatements(db);
    const result = await storeEventDeliveries(
      counted.db,
      [
        { eventId: seen, eventType: "transaction.success", txId: "tx_a" },
        { eventId: fresh, eventType: "transaction.success", txId: "tx_b" },
        { eventId: other, eventType: "transaction.refunded", txId: "tx_b" },
      ],
      [
        // An event already processed: its deliveries are not stored, even for a configuration new to it.
        { ...base, deliveryId: seenDelivery, eventId: seen, txId: "tx_a", sequence: 1n, nextAttemptAt: now },
        {
          ...base,
          deliveryId: first,
          eventId: fresh,
          sequence: 2n,
          nextAttemptAt: now,
          traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
          occurredAt: new Date("2026-11-25T00:59:59.500Z"),
        },
        {
          ...base,
          deliveryId: second,
          eventId: other,
          eventType: "transaction.refunded",
          sequence: 9007199254740993n,
          nextAttemptAt: now,
        },
        // The same (event, config) again: left alone.
        { ...base, deliveryId: newId("whd"), eventId: fresh, sequence: 2n, nextAttemptAt: now },
      ],
      now,
    );
    expect(counted.statements()).toBe(1);
    expect(result).toEqual({ stored: 2, claimed: [], waiting: [config] });
    const processed = await db.query<{ event_id: string }>(
      "SELECT event_id FROM webhooks.processed_events WHERE event_id = ANY($1::text[]) ORDER BY event_id",
      [[seen, fresh, other]],
    );
    expect(processed.rows.map((r) => r.event_id)).toEqual([seen, fresh, other].sort());
    const rows = await db.query<{
      delivery_id: string;
      body: Uint8Array;
      sequence: string;
      traceparent: string | null;
      event_occurred_at: Date | null;
      status: string;
    }>(
      "SELECT delivery_id, body, sequence::text AS sequence, traceparent, event_occurred_at, status FROM webhooks.deliveries WHERE config_id = $1 ORDER BY sequence",
      [config],
    );
    expect(rows.rows.map((r) => r.delivery_id)).toEqual([first, second]);
    expect(rows.rows.every((r) => Buffer.from(r.body).equals(body) && r.status === "pending")).toBe(true);
    expect(rows.rows[0]).toMatchObject({
      sequence: "2",
      traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    });
    expect(rows.rows[0]!.event_occurred_at?.toISOString()).toBe("2026-11-25T00:59:59.500Z");
    expect(rows.rows[1]).toMatchObject({
      sequence: "9007199254740993",
      traceparent: null,
      event_occurred_at: null,
    });
  });

  it("stores fresh deliveries already claimed when they may go out at once, in the same one statement", async () => {
    const idle = await insertConfig(db);
    const busy = await insertConfig(db);
    const backlogged = await insertConfig(db);
    for (let i = 0; i < 3; i++) await insertDelivering(db, busy, 1);
    const answeredElsewhere = await insertDelivering(db, busy, 1);
    await db.query("UPDATE webhooks.deliveries SET status = 'pending' WHERE delivery_id = $1", [
      await insertDelivering(db, backlogged, 1),
    ]);
    const blocked = await insertDelivering(db, idle, 1);
    const blockedTx = (
      await db.query<{ tx_id: string }>("SELECT tx_id FROM webhooks.deliveries WHERE delivery_id = $1", [
        blocked,
      ])
    ).rows[0]!.tx_id;
    const now = new Date();
    const row = (configId: string, txId: string, sequence: bigint, due = now) => ({
      deliveryId: newId("whd"),
      eventId: newId("evt"),
      configId,
      partnerId: "ptr_x",
      txId,
      sequence,
      eventType: "transaction.success",
      body: Buffer.from(`{"tx_id":"${txId}"}`),
      nextAttemptAt: due,
    });
    const batch = [
      row(idle, "tx_1", 3n), // claimed
      row(idle, "tx_1", 4n), // waits for tx_1's sequence 3 (earlier in this batch)
      row(idle, blockedTx, 2n), // waits for the delivering sequence 1 of its transaction
      row(idle, "tx_2", 3n, new Date(now.getTime() + 60_000)), // not due yet
      row(idle, "tx_3", 3n), // claimed
      row(busy, "tx_4", 3n), // the last slot under the cap of 4 (one of the 4 live claims has answered)
      row(busy, "tx_5", 3n), // over the cap
      row(backlogged, "tx_6", 3n), // its receiver has a due row waiting: no overtaking
      row(idle, "tx_7", 3n), // over the process's limit of 3
    ];
    const counted = countingStatements(db);
    const events = batch.map((d) => ({ eventId: d.eventId, eventType: d.eventType, txId: d.txId }));
    const result = await storeEventDeliveries(counted.db, events, batch, now, {
      workerId: "whw_intake",
      leaseMs: 12_000,
      limit: 3,
      perConfigLimit: 4,
      answered: [answeredElsewhere],
    });
    expect(counted.statements()).toBe(1);
    expect(result.stored).toBe(batch.length);
    expect([...result.waiting].sort()).toEqual([idle, busy, backlogged].sort());
    const claimedIds = [batch[0]!, batch[4]!, batch[5]!].map((d) => d.deliveryId);
    expect(result.claimed.map((c) => c.delivery_id).sort()).toEqual([...claimedIds].sort());
    const first = result.claimed.find((c) => c.delivery_id === batch[0]!.deliveryId)!;
    expect(first).toMatchObject({
      attempts: 1,
      url: "https://example.test/hook",
      tx_id: "tx_1",
      kind: "event",
    });
    expect(Buffer.from(first.body).equals(batch[0]!.body)).toBe(true);
    const states = await deliveries(
      db,
      batch.map((d) => d.deliveryId),
    );
    for (const d of batch) {
      const state = states.get(d.deliveryId)!;
      if (claimedIds.includes(d.deliveryId)) {
        expect(state).toMatchObject({ status: "delivering", claimed_by: "whw_intake" });
        expect(state.lease_expires_at!.getTime()).toBeGreaterThan(Date.now() + 5_000);
      } else {
        expect(state).toMatchObject({ status: "pending", claimed_by: null, lease_expires_at: null });
      }
    }
  });

  it("records many attempts in one statement: outcomes, guards, 410 and vanished deliveries", async () => {
    const config = await insertConfig(db);
    const gone = await insertConfig(db);
    const delivered = await insertDelivering(db, config, 1);
    const retried = await insertDelivering(db, config, 3);
    const stale = await insertDelivering(db, config, 2);
    const retired = await insertDelivering(db, gone, 1);
    const at = new Date("2026-11-25T01:00:00.000Z");
    const nextAt = new Date("2026-11-25T01:00:10.000Z");
    const attempt = (
      deliveryId: string,
      n: number,
      statusCode: number,
      result: RecordedAttempt["result"],
      extra: Partial<RecordedAttempt["record"]> = {},
      disableConfigReason?: string,
    ): RecordedAttempt => ({
      record: {
        deliveryId,
        attempt: n,
        statusCode,
        error: undefined,
        latencyMs: 12,
        at,
        responseBody: undefined,
        ...extra,
      },
      result,
      disableConfigReason,
    });

    const applied = await recordAttempts(db, [
      attempt(delivered, 1, 200, { status: "delivered" }, { responseBody: '{"received":true}' }),
      attempt(
        retried,
        3,
        0,
        { status: "pending", nextAttemptAt: nextAt },
        { error: "timed out after 10 ms" },
      ),
      // A worker whose claim was taken over (the row is on attempt 2 now) reports attempt 1.
      attempt(stale, 1, 200, { status: "delivered" }),
      attempt(
        retired,
        1,
        410,
        { status: "dead" },
        {},
        "receiver answered 410 Gone at 2026-11-25T01:00:00.000Z",
      ),
      // Deleted with its configuration meanwhile: skipped, the others still stored.
      attempt(newId("whd"), 1, 200, { status: "delivered" }),
    ]);

    expect([...applied].sort()).toEqual([delivered, retried, retired].sort());
    const rows = await deliveries(db, [delivered, retried, stale, retired]);
    expect(rows.get(delivered)).toMatchObject({
      status: "delivered",
      last_status_code: 200,
      last_error: null,
      response_body: '{"received":true}',
      lease_expires_at: null,
      claimed_by: null,
    });
    expect(rows.get(delivered)?.delivered_at?.toISOString()).toBe(at.toISOString());
    expect(rows.get(retried)).toMatchObject({
      status: "pending",
      last_status_code: null,
      last_error: "timed out after 10 ms",
      delivered_at: null,
    });
    expect(rows.get(retried)?.next_attempt_at.toISOString()).toBe(nextAt.toISOString());
    expect(rows.get(stale)).toMatchObject({ status: "delivering", claimed_by: "whw_batch" });
    expect(rows.get(retired)).toMatchObject({ status: "dead", last_status_code: 410 });
    const configs = await db.query<{ config_id: string; active: boolean; disabled_reason: string | null }>(
      "SELECT config_id, active, disabled_reason FROM webhooks.configs WHERE config_id = ANY($1::text[])",
      [[config, gone]],
    );
    expect(Object.fromEntries(configs.rows.map((c) => [c.config_id, [c.active, c.disabled_reason]]))).toEqual(
      {
        [config]: [true, null],
        [gone]: [false, "receiver answered 410 Gone at 2026-11-25T01:00:00.000Z"],
      },
    );
    const attempts = await db.query<{
      delivery_id: string;
      attempt: number;
      status_code: number;
      latency_ms: number;
    }>(
      "SELECT delivery_id, attempt, status_code, latency_ms FROM webhooks.delivery_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id",
      [[delivered, retried, stale, retired]],
    );
    expect(attempts.rows).toHaveLength(4);
    expect(attempts.rows.find((a) => a.delivery_id === retried)).toMatchObject({
      attempt: 3,
      status_code: 0,
    });
  });

  it("stores the attempts that finish in one event-loop turn with one statement", async () => {
    const config = await insertConfig(db);
    const ids = await Promise.all(Array.from({ length: 40 }, () => insertDelivering(db, config, 1)));
    const counted = countingStatements(db);
    const recorder = createAttemptRecorder({ db: counted.db, maxBatch: 500 });
    const results = await Promise.all(
      ids.map((id) =>
        recorder.record({
          record: {
            deliveryId: id,
            attempt: 1,
            statusCode: 204,
            error: undefined,
            latencyMs: 3,
            at: new Date(),
            responseBody: undefined,
          },
          result: { status: "delivered" },
        }),
      ),
    );
    expect(results.every(Boolean)).toBe(true);
    expect(counted.statements()).toBe(1);
    const rows = await deliveries(db, ids);
    expect([...rows.values()].every((r) => r.status === "delivered")).toBe(true);
  });

  it("stores the others when a batch is refused, trying its attempts one by one", async () => {
    const config = await insertConfig(db);
    const ids = await Promise.all(Array.from({ length: 3 }, () => insertDelivering(db, config, 1)));
    let refusals = 0;
    // The first statement of several attempts fails (as one bad row would fail it); single ones pass.
    const flaky: Database = {
      ...db,
      kind: db.kind,
      query: (sql, params) => {
        const batchOfMany = Array.isArray(params?.[0]) && (params[0] as unknown[]).length > 1;
        if (sql.includes("webhooks.delivery_attempts") && batchOfMany && refusals++ === 0) {
          return Promise.reject(new Error("refused batch"));
        }
        return db.query(sql, params);
      },
      exec: (sql) => db.exec(sql),
      transaction: (fn) => db.transaction(fn),
      close: () => db.close(),
    };
    const recorder = createAttemptRecorder({ db: flaky, maxBatch: 500 });
    const results = await Promise.all(
      ids.map((id) =>
        recorder.record({
          record: {
            deliveryId: id,
            attempt: 1,
            statusCode: 200,
            error: undefined,
            latencyMs: 3,
            at: new Date(),
            responseBody: undefined,
          },
          result: { status: "delivered" },
        }),
      ),
    );
    expect(refusals).toBe(1);
    expect(results).toEqual([true, true, true]);
  });
});

async function insertConfig(db: Queryable): Promise<string> {
  const configId = newId("whc");
  await db.query(
    "INSERT INTO webhooks.configs (config_id, partner_id, url, events) VALUES ($1, $2, 'https://example.test/hook', '{*}')",
    [configId, newId("ptr")],
  );
  return configId;
}

/** A delivery claimed by a worker, on its `attempts`-th attempt. */
async function insertDelivering(db: Queryable, configId: string, attempts: number): Promise<string> {
  const deliveryId = newId("whd");
  await db.query(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body,
       status, attempts, next_attempt_at, lease_expires_at, claimed_by)
     SELECT $1, $2, $3, partner_id, $4, 1, 'transaction.success', $5, 'delivering', $6, now(),
            now() + interval '1 minute', 'whw_batch'
       FROM webhooks.configs WHERE config_id = $3`,
    [deliveryId, newId("evt"), configId, newId("tx"), Buffer.from("{}"), attempts],
  );
  return deliveryId;
}

interface DeliveryState {
  readonly status: string;
  readonly last_status_code: number | null;
  readonly last_error: string | null;
  readonly response_body: string | null;
  readonly lease_expires_at: Date | null;
  readonly claimed_by: string | null;
  readonly delivered_at: Date | null;
  readonly next_attempt_at: Date;
}

async function deliveries(db: Queryable, ids: readonly string[]): Promise<Map<string, DeliveryState>> {
  const res = await db.query<DeliveryState & { delivery_id: string }>(
    `SELECT delivery_id, status, last_status_code, last_error, response_body, lease_expires_at, claimed_by,
            delivered_at, next_attempt_at
       FROM webhooks.deliveries WHERE delivery_id = ANY($1::text[])`,
    [ids],
  );
  return new Map(res.rows.map((r) => [r.delivery_id, r]));
}

function countingStatements(db: Database): { db: Database; statements: () => number } {
  let count = 0;
  return {
    db: {
      kind: db.kind,
      query: (sql, params) => {
        count++;
        return db.query(sql, params);
      },
      exec: (sql) => db.exec(sql),
      transaction: (fn) => db.transaction(fn),
      close: () => db.close(),
    },
    statements: () => count,
  };
}
