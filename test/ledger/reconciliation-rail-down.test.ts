/**
 * Reconciliation when the rail does not answer, on real PostgreSQL: the ledger's rail transport points at a
 * loopback port nobody listens on. Starting a run answers SERVICE_UNAVAILABLE with a retry hint (the
 * gateway's 503 + Retry-After), the run is kept FAILED with the reason, and no break is opened.
 */
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createLedgerService, LEDGER_MIGRATIONS } from "@payouts/ledger/ledger-service";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { createLogger } from "@payouts/platform/logging/logger";
import { Code, ConnectError, errorDetailOf } from "@payouts/platform/rpc/service-error";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import type { ServiceModule } from "@payouts/platform/service-module";
import { ReconciliationService } from "@payouts/proto/payouts/ledger/v1/reconciliation_pb";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../support/free-port.js";
import { createTestDatabase } from "../support/infra.js";

let drop: () => Promise<void>;
let db: Database;
let module: ServiceModule;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createPgDatabase({ connectionString: database.url, maxConnections: 5 });
  await migrate(db, LEDGER_MIGRATIONS);
  module = createLedgerService({
    db,
    bus: createInProcessEventBus(),
    logger: createLogger({ service: "ledger-test", level: "silent" }),
    transports: { rail: createServiceTransport(`http://127.0.0.1:${await freePort()}`) },
    env: { RECONCILIATION_INTERVAL_MS: "0", RECONCILIATION_READ_TIMEOUT_MS: "2000" },
    mode: "distributed",
  });
  await module.start();
});
afterAll(async () => {
  await module?.stop();
  await db?.close();
  await drop?.();
});

it("answers SERVICE_UNAVAILABLE, keeps the run FAILED and opens nothing", async () => {
  const client = createClient(
    ReconciliationService,
    createRouterTransport((r) => module.routes(r)),
  );
  const error = await client.startReconciliationRun({ date: "2026-01-02", startedBy: "test" }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectError);
  expect((error as ConnectError).code).toBe(Code.Unavailable);
  expect(errorDetailOf(error)?.reason).toBe("SERVICE_UNAVAILABLE");
  expect(errorDetailOf(error)?.metadata.retry_after_seconds).toBe("5");

  const { runs } = await client.listReconciliationRuns({ date: "2026-01-02" });
  expect(runs.map((r) => [r.status, r.startedBy, r.error])).toEqual([
    ["FAILED", "test", "the rail did not answer with its settlement records"],
  ]);
  expect(runs[0]?.finishedAt).toBeDefined();
  expect((await client.listReconciliationBreaks({})).breaks).toEqual([]);
});
