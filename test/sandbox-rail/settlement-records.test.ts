/**
 * The sandbox rail's ListSettlementRecords on real PostgreSQL: a day's records are the payouts it accepted
 * that UTC day (not the day before or after, never a cancelled one), paged; planted discrepancies change
 * what it reports (refused in production mode: test/security/doctor-settlement-records.test.ts).
 */
import { createClient, createRouterTransport } from "@connectrpc/connect";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { createLogger } from "@payouts/platform/logging/logger";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import type { ServiceModule } from "@payouts/platform/service-module";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import {
  createSandboxRailService,
  SANDBOX_RAIL_MIGRATIONS,
} from "@payouts/sandbox-rail/sandbox-rail-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

let drop: () => Promise<void>;
let db: Database;
const modules: ServiceModule[] = [];
let clock = new Date("2026-03-01T23:59:59.000Z");

function railOf(env: Record<string, string> = {}) {
  const module = createSandboxRailService({
    db,
    bus: createInProcessEventBus(),
    logger: createLogger({ service: "rail-test", level: "silent" }),
    transports: {},
    env: {
      RAIL_CALLBACK_SECRET: "test-rail-callback-secret-of-32-bytes",
      RAIL_CALLBACK_URL: "http://127.0.0.1:9/callbacks/rail",
      SANDBOX_AUTO_SETTLE_MS: "0",
      ...env,
    },
    now: () => clock,
    mode: "distributed",
  });
  modules.push(module);
  return createClient(
    RailService,
    createRouterTransport((r) => module.routes(r)),
  );
}

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createPgDatabase({ connectionString: database.url, maxConnections: 5 });
  await migrate(db, SANDBOX_RAIL_MIGRATIONS);
});
afterAll(async () => {
  for (const m of modules) await m.stop();
  await db?.close();
  await drop?.();
});

const submit = (rail: ReturnType<typeof railOf>, txId: string, amount = "1500") =>
  rail.submitPayout({
    txId,
    countryCode: "NG",
    currency: "NGN",
    amount,
    destinationType: "NUBAN",
    paymentDestination: "0123456789",
    paymentDestinationCode: "058",
  });

async function allRecords(rail: ReturnType<typeof railOf>, date: string, limit = 0) {
  const out = [];
  let cursor = "";
  do {
    const page = await rail.listSettlementRecords({ date, limit, cursor });
    out.push(...page.records);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

describe("settlement records", () => {
  it("lists the payouts accepted that UTC day, paged, and applies planted discrepancies", async () => {
    const rail = railOf();
    await submit(rail, "tx_before_midnight");
    clock = new Date("2026-03-02T00:00:00.000Z");
    await submit(rail, "tx_a", "100.25");
    await submit(rail, "tx_b");
    await submit(rail, "tx_c");
    await rail.cancelPayout({ txId: "tx_cancelled", reason: "gave up" });

    const day = await allRecords(rail, "2026-03-02", 2);
    expect(day.map((r) => [r.txId, r.amount, r.currency, r.status])).toEqual([
      ["tx_a", "100.25", "NGN", "PENDING"],
      ["tx_b", "1500", "NGN", "PENDING"],
      ["tx_c", "1500", "NGN", "PENDING"],
    ]);
    expect(day[0]?.railReference).toMatch(/^sbx_/);
    expect((await allRecords(rail, "2026-03-01")).map((r) => r.txId)).toEqual(["tx_before_midnight"]);

    await rail.injectSettlementDiscrepancy({ date: "2026-03-02", kind: "DROP_RECORD", txId: "tx_a" });
    await rail.injectSettlementDiscrepancy({
      date: "2026-03-02",
      kind: "CHANGE_AMOUNT",
      txId: "tx_b",
      amount: "1499.99",
    });
    await rail.injectSettlementDiscrepancy({ date: "2026-03-02", kind: "ADD_UNKNOWN_RECORD", amount: "7" });
    const doctored = await allRecords(rail, "2026-03-02");
    expect(doctored.map((r) => r.amount)).toEqual(["1499.99", "1500", "7"]);
    expect(doctored.map((r) => r.txId).slice(0, 2)).toEqual(["tx_b", "tx_c"]);
  });

  it("refuses a bad date, kind or cursor with INVALID_FIELD naming it", async () => {
    const rail = railOf();
    for (const [call, field] of [
      [rail.listSettlementRecords({ date: "2026-02-30" }), "date"],
      [rail.listSettlementRecords({ date: "2026-03-02", cursor: "x" }), "cursor"],
      [rail.injectSettlementDiscrepancy({ date: "2026-03-02", kind: "BURN" }), "kind"],
    ] as const) {
      const error = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(errorDetailOf(error)).toMatchObject({ reason: "INVALID_FIELD", field });
    }
  });
});
