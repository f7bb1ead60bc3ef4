/**
 * The sandbox rail's CancelPayout on real PostgreSQL: a payout the rail never had is
 * cancelled for good — a late SubmitPayout is refused and SettlePayout answers PAYOUT_CANCELLED — while a
 * payout it accepted is kept (its callback may be on its way). Submit and cancel race on the primary key:
 * exactly one of them wins.
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
let module: ServiceModule;
let rail: ReturnType<typeof createClient<typeof RailService>>;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createPgDatabase({ connectionString: database.url, maxConnections: 10 });
  await migrate(db, SANDBOX_RAIL_MIGRATIONS);
  module = createSandboxRailService({
    db,
    bus: createInProcessEventBus(),
    logger: createLogger({ service: "rail-test", level: "silent" }),
    transports: {},
    env: {
      RAIL_CALLBACK_SECRET: "test-rail-callback-secret-of-32-bytes",
      RAIL_CALLBACK_URL: "http://127.0.0.1:9/callbacks/rail",
      SANDBOX_AUTO_SETTLE_MS: "0",
    },
    mode: "distributed",
  });
  await module.start();
  rail = createClient(
    RailService,
    createRouterTransport((r) => module.routes(r)),
  );
});
afterAll(async () => {
  await module?.stop();
  await db?.close();
  await drop?.();
});

const submission = (txId: string) => ({
  txId,
  countryCode: "NG",
  currency: "NGN",
  amount: "15000",
  destinationType: "NUBAN",
  paymentDestination: "0123456789",
  paymentDestinationCode: "058",
});

async function reasonOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "OK";
  } catch (error) {
    return errorDetailOf(error)?.reason ?? String(error);
  }
}

describe("CancelPayout", () => {
  it("cancels for good a payout the rail never had", async () => {
    expect(await rail.cancelPayout({ txId: "tx_ghost", reason: "gave up" })).toMatchObject({
      cancelled: true,
      providerReference: "",
    });
    expect((await rail.cancelPayout({ txId: "tx_ghost" })).cancelled).toBe(true);
    const late = await rail.submitPayout(submission("tx_ghost"));
    expect(late.accepted).toBe(false);
    expect(await reasonOf(rail.settlePayout({ txId: "tx_ghost", outcome: "SUCCESS" }))).toBe(
      "PAYOUT_CANCELLED",
    );
    const row = await db.query<{ next_callback_at: Date | null; delivered_at: Date | null }>(
      "SELECT next_callback_at, delivered_at FROM rail.submissions WHERE tx_id = 'tx_ghost'",
    );
    expect(row.rows).toEqual([{ next_callback_at: null, delivered_at: null }]);
  });

  it("keeps a payout it accepted, with its reference", async () => {
    const accepted = await rail.submitPayout(submission("tx_taken"));
    expect(accepted.accepted).toBe(true);
    const kept = await rail.cancelPayout({ txId: "tx_taken", reason: "gave up" });
    expect(kept).toMatchObject({ cancelled: false, providerReference: accepted.providerReference });
    expect((await rail.submitPayout(submission("tx_taken"))).accepted).toBe(true);
    expect(await reasonOf(rail.cancelPayout({ txId: "" }))).toBe("MISSING_REQUIRED_FIELD");
  });

  it("lets exactly one of a racing submit and cancel win", async () => {
    for (let i = 0; i < 20; i++) {
      const txId = `tx_race_${i}`;
      const [submitted, cancelled] = await Promise.all([
        rail.submitPayout(submission(txId)),
        rail.cancelPayout({ txId, reason: "race" }),
      ]);
      expect([txId, submitted.accepted !== cancelled.cancelled]).toEqual([txId, true]);
    }
  });
});
