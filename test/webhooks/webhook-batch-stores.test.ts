import type { Database, Queryable } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createPgliteDatabase } from "@payouts/platform/database/pglite-database";
import { newId } from "@payouts/platform/ids";
import { createAttemptRecorder } from "@payouts/webhooks/internal/delivery/attempt-recorder";
import { DEFAULT_CIRCUIT_SETTINGS } from "@payouts/webhooks/internal/domain/circuit-breaker";
import {
  claimDueDeliveries,
  queueOutgrewItsPlans,
  type RecordedAttempt,
  recordAttempts,
} from "@payouts/webhooks/internal/store/delivery-queue-store";
import { insertDeliveries, markEventsProcessed } from "@payouts/webhooks/internal/store/delivery-store";
import { WEBHOOKS_MIGRATIONS } from "@payouts/webhooks/webhooks-service";
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
    await migrate(db, WEBHOOKS_MIGRATIONS);
  });
  afterAll(async () => {
    await db?.close();
    await drop();
  });

  it("marks a batch of events processed and stores their deliveries with exact bodies, one statement each", async () => {
    const config = await insertConfig(db);
    const seen = newId("evt");
    const now = new Date("2026-11-25T01:00:00.000Z");
    await markEventsProcessed(db, [{ eventId: seen, eventType: "transaction.success", txId: "tx_a" }], now);
    const fresh = newId("evt");
    const other = newId("evt");
    const counted = countingStatements(db);
    const marked = await markEventsProcessed(
      counted.db,
      [
        { eventId: seen, eventType: "transaction.success", txId: "tx_a" },
        { eventId: fresh, eventType: "transaction.success", txId: "tx_b" },
        { eventId: other, eventType: "transaction.refunded", txId: "tx_b" },
      ],
      now,
    );
    expect([...marked].sort()).toEqual([fresh, other].sort());
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
    const first = newId("whd");
    const second = newId("whd");
    await insertDeliveries(
      counted.db,
      [
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
    expect(counted.statements()).toBe(2);
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
      circuit: statusCode === 0 ? "failure" : "success",
      disableConfigReason,
    });

    const { applied } = await recordAttempts(
      db,
      [
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
      ],
      DEFAULT_CIRCUIT_SETTINGS,
    );

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

  it("moves each receiver's circuit in the same statement, and leaves a healthy receiver's row unwritten", async () => {
    const settings = { failureThreshold: 3, probeIntervalMs: 2_000 };
    const at = (ms: number) => new Date(Date.parse("2026-11-25T02:00:00.000Z") + ms);
    const attempt = (
      deliveryId: string,
      ms: number,
      circuit: RecordedAttempt["circuit"],
    ): RecordedAttempt => ({
      record: {
        deliveryId,
        attempt: 1,
        statusCode: circuit === "success" ? 200 : 0,
        error: circuit === "success" ? undefined : "connection refused",
        latencyMs: 1,
        at: at(ms),
        responseBody: undefined,
      },
      result:
        circuit === "success" ? { status: "delivered" } : { status: "pending", nextAttemptAt: at(60_000) },
      circuit,
    });
    const healthy = await insertConfig(db);
    const failing = await insertConfig(db);
    const probed = await insertConfig(db);
    const recovering = await insertConfig(db);
    await db.query(
      `UPDATE webhooks.configs SET circuit_state = 'half_open', circuit_failures = 4,
              circuit_opened_at = $2, circuit_retry_at = $3 WHERE config_id = ANY($1::text[])`,
      [[probed, recovering], at(-60_000), at(10_000)],
    );
    const rows = async (configId: string, n: number) =>
      Promise.all(Array.from({ length: n }, () => insertDelivering(db, configId, 1)));
    const [h1, h2] = await rows(healthy, 2);
    const [f1, f2, f3] = await rows(failing, 3);
    const [p1] = await rows(probed, 1);
    const [r1] = await rows(recovering, 1);
    const healthyBefore = await rowVersion(db, healthy);

    const stored = await recordAttempts(
      db,
      [
        attempt(h1!, 0, "success"),
        attempt(h2!, 1, "success"),
        attempt(f1!, 0, "failure"),
        attempt(f2!, 5, "failure"),
        // Abandoned on this side: says nothing about the receiver.
        attempt(f3!, 7, "none"),
        attempt(p1!, 3, "failure"),
        attempt(r1!, 3, "success"),
      ],
      settings,
    );
    expect(stored.applied.size).toBe(7);
    expect(await rowVersion(db, healthy)).toBe(healthyBefore);
    expect(await circuitOf(db, failing)).toEqual({
      circuit_state: "closed",
      circuit_failures: 2,
      circuit_opened_at: null,
      circuit_retry_at: null,
    });
    // A failed probe opens again, one probe interval after it; when it first opened is kept.
    expect(await circuitOf(db, probed)).toEqual({
      circuit_state: "open",
      circuit_failures: 5,
      circuit_opened_at: at(-60_000).toISOString(),
      circuit_retry_at: at(2_003).toISOString(),
    });
    expect(await circuitOf(db, recovering)).toEqual({
      circuit_state: "closed",
      circuit_failures: 0,
      circuit_opened_at: null,
      circuit_retry_at: null,
    });
    expect(stored.circuitChanges).toEqual([{ configId: recovering, transition: "closed" }]);

    // The third failure in a row opens the circuit; a success of the same batch before it does not reset it.
    const [f4, f5] = await rows(failing, 2);
    const next = await recordAttempts(
      db,
      [attempt(f4!, 10, "success"), attempt(f5!, 9, "failure")],
      settings,
    );
    expect(next.circuitChanges).toEqual([]);
    expect((await circuitOf(db, failing)).circuit_failures).toBe(0);
    const [f6, f7, f8] = await rows(failing, 3);
    const opened = await recordAttempts(
      db,
      [attempt(f6!, 20, "failure"), attempt(f7!, 21, "failure"), attempt(f8!, 22, "failure")],
      settings,
    );
    expect(opened.circuitChanges).toEqual([{ configId: failing, transition: "opened" }]);
    expect(await circuitOf(db, failing)).toEqual({
      circuit_state: "open",
      circuit_failures: 3,
      circuit_opened_at: at(22).toISOString(),
      circuit_retry_at: at(2_022).toISOString(),
    });
  });

  it("claims one probe of an open circuit due for it, nothing of a paused or not-yet-due receiver", async () => {
    const closed = await insertConfig(db);
    const due = await insertConfig(db);
    const waiting = await insertConfig(db);
    const paused = await insertConfig(db);
    for (const config of [closed, due, waiting, paused]) {
      for (let i = 0; i < 3; i++) await insertPending(db, config);
    }
    await db.query(
      `UPDATE webhooks.configs SET circuit_state = 'open', circuit_failures = 5, circuit_opened_at = now(),
              circuit_retry_at = CASE WHEN config_id = $1 THEN now() - interval '1 second'
                                      ELSE now() + interval '1 minute' END
        WHERE config_id = ANY($2::text[])`,
      [due, [due, waiting]],
    );
    await db.query("UPDATE webhooks.configs SET paused = true WHERE config_id = $1", [paused]);
    const now = new Date();
    const claimed = await claimDueDeliveries(db, {
      now,
      leaseMs: 12_000,
      workerId: "whw_batch",
      limit: 64,
      perConfigLimit: 4,
    });
    const perConfig = (config: string) => claimed.filter((c) => c.config_id === config).length;
    expect([perConfig(closed), perConfig(due), perConfig(waiting), perConfig(paused)]).toEqual([3, 1, 0, 0]);
    const circuit = await db.query<{ circuit_state: string; circuit_retry_at: Date }>(
      "SELECT circuit_state, circuit_retry_at FROM webhooks.configs WHERE config_id = $1",
      [due],
    );
    expect(circuit.rows[0]!.circuit_state).toBe("half_open");
    expect(new Date(circuit.rows[0]!.circuit_retry_at).getTime()).toBe(now.getTime() + 12_000);
  });

  it("claims, at intake and later, up to a receiver's raised limit and within the partner's bound", async () => {
    const partnerId = newId("ptr");
    const [raised, plain] = [newId("whc"), newId("whc")];
    for (const configId of [raised, plain]) {
      await db.query(
        "INSERT INTO webhooks.configs (config_id, partner_id, url, events) VALUES ($1, $2, 'https://example.test/hook', '{*}')",
        [configId, partnerId],
      );
    }
    const now = new Date();
    const rows = [raised, plain].flatMap((configId) =>
      Array.from({ length: 8 }, (_, i) => ({
        deliveryId: newId("whd"),
        eventId: newId("evt"),
        configId,
        partnerId,
        txId: `tx_${configId}_${i}`,
        sequence: 1n,
        eventType: "transaction.success",
        body: Buffer.from("{}"),
        nextAttemptAt: now,
      })),
    );
    const worker = "whw_limits";
    const preclaimed = await insertDeliveries(db, rows, now, {
      workerId: worker,
      leaseMs: 60_000,
      limit: 64,
      perConfigLimit: 2,
      raisedLimits: { [raised]: 5 },
      perPartnerLimit: 6,
      answered: [],
    });
    const count = (claimed: readonly { config_id: string }[], configId: string) =>
      claimed.filter((c) => c.config_id === configId).length;
    // 5 of the raised receiver's (its limit), then the partner's bound of 6 leaves 1 of the other's 2.
    expect([count(preclaimed, raised), count(preclaimed, plain)]).toEqual([5, 1]);

    const claim = (raisedLimits: Record<string, number>, perPartnerLimit: number) =>
      claimDueDeliveries(db, {
        now: new Date(),
        leaseMs: 60_000,
        workerId: worker,
        limit: 64,
        perConfigLimit: 2,
        raisedLimits,
        perPartnerLimit,
      });
    const next = await claim({ [raised]: 6 }, 8);
    expect([count(next, raised), count(next, plain)]).toEqual([1, 1]);
    // Both receivers have room once the plain one is raised too, but the partner holds its 8.
    expect(await claim({ [raised]: 6, [plain]: 4 }, 8)).toHaveLength(0);
    expect(await claim({ [raised]: 6, [plain]: 4 }, 9)).toHaveLength(1);
  });

  it("stores the attempts that finish in one event-loop turn with one statement", async () => {
    const config = await insertConfig(db);
    const ids = await Promise.all(Array.from({ length: 40 }, () => insertDelivering(db, config, 1)));
    const counted = countingStatements(db);
    const recorder = createAttemptRecorder({
      db: counted.db,
      maxBatch: 500,
      circuit: DEFAULT_CIRCUIT_SETTINGS,
    });
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
          circuit: "success",
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
    const recorder = createAttemptRecorder({ db: flaky, maxBatch: 500, circuit: DEFAULT_CIRCUIT_SETTINGS });
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
          circuit: "success",
        }),
      ),
    );
    expect(refusals).toBe(1);
    expect(results).toEqual([true, true, true]);
  });

  it("tells when the queue outgrew the size last recorded for it, and claims planned per call alike", async () => {
    await db.exec("VACUUM ANALYZE webhooks.deliveries");
    expect(await queueOutgrewItsPlans(db)).toBe(false);
    // About 2 MB of another receiver's rows, due only in an hour: far more than twice the recorded size.
    const later = await insertConfig(db);
    await db.query(
      `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
         body, status, attempts, next_attempt_at)
       SELECT 'whd_later_' || i, 'evt_later_' || i, c.config_id, c.partner_id, 'tx_later_' || i, 1,
              'transaction.success', convert_to(repeat('x', 600), 'UTF8'), 'pending', 0, now() + interval '1 hour'
         FROM webhooks.configs c, generate_series(1, 3000) AS i WHERE c.config_id = $1`,
      [later],
    );
    expect(await queueOutgrewItsPlans(db)).toBe(true);
    const config = await insertConfig(db);
    const due = [await insertPending(db, config), await insertPending(db, config)];
    const claimed = await claimDueDeliveries(db, {
      now: new Date(),
      leaseMs: 12_000,
      workerId: "whw_batch",
      limit: 64,
      perConfigLimit: 4,
      planned: "per-call",
    });
    const ofConfig = claimed.filter((c) => c.config_id === config).map((c) => c.delivery_id);
    expect(ofConfig.sort()).toEqual(due.sort());
    await db.exec("VACUUM ANALYZE webhooks.deliveries");
    expect(await queueOutgrewItsPlans(db)).toBe(false);
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

/** A delivery due for its first attempt, in a transaction of its own. */
async function insertPending(db: Queryable, configId: string): Promise<string> {
  const deliveryId = newId("whd");
  await db.query(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body,
       status, attempts, next_attempt_at)
     SELECT $1, $2, $3, partner_id, $4, 1, 'transaction.success', $5, 'pending', 0, now() - interval '1 second'
       FROM webhooks.configs WHERE config_id = $3`,
    [deliveryId, newId("evt"), configId, newId("tx"), Buffer.from("{}")],
  );
  return deliveryId;
}

/** Changes whenever the row is written or locked. */
async function rowVersion(db: Queryable, configId: string): Promise<string> {
  const res = await db.query<{ v: string }>(
    "SELECT xmin || '/' || xmax AS v FROM webhooks.configs WHERE config_id = $1",
    [configId],
  );
  return res.rows[0]!.v;
}

async function circuitOf(db: Queryable, configId: string) {
  const res = await db.query<{
    circuit_state: string;
    circuit_failures: number;
    circuit_opened_at: string | null;
    circuit_retry_at: string | null;
  }>(
    `SELECT circuit_state, circuit_failures,
            to_char(circuit_opened_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS circuit_opened_at,
            to_char(circuit_retry_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS circuit_retry_at
       FROM webhooks.configs WHERE config_id = $1`,
    [configId],
  );
  return res.rows[0]!;
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
