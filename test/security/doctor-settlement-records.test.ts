/**
 * Attack: an insider wants a payout to vanish from reconciliation — or an invented one to appear — by
 * doctoring the rail's settlement records with the sandbox's discrepancy control. The rail runs in
 * production mode (NODE_ENV=production) behind the real gRPC listener with service authentication. Signed
 * as the admin identity (what the gateway's admin route uses) every kind of discrepancy is refused with
 * SANDBOX_CONTROL_DISABLED; signed as the ledger (the identity that reads the records) the control is not
 * even callable (PermissionDenied). The day's records still list the payout, unchanged, and nothing else.
 */
import { Code } from "@connectrpc/connect";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { createLogger } from "@payouts/platform/logging/logger";
import type { ServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import type { GrpcServerHandle } from "@payouts/platform/rpc/grpc-server";
import { generateServiceCredentials } from "@payouts/platform/rpc/service-credentials";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import type { ServiceModule } from "@payouts/platform/service-module";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import {
  createSandboxRailService,
  SANDBOX_RAIL_MIGRATIONS,
} from "@payouts/sandbox-rail/sandbox-rail-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";
import { localDay } from "../support/partner-days.js";
import { clientAs, codeOf, listenAuthenticated } from "../support/rpc-callers.js";

const credentials = generateServiceCredentials();
/** The UTC day the rail accepted the payout on: the day its settlement record is listed under. */
let day: string;
let drop: () => Promise<void>;
let db: Database;
let module: ServiceModule;
let server: GrpcServerHandle;
let base: ReturnType<typeof createServiceTransport>;

const railAs = (caller: ServiceCaller) => clientAs(RailService, base, credentials, "rail", caller);

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createPgDatabase({ connectionString: database.url, maxConnections: 5 });
  await migrate(db, SANDBOX_RAIL_MIGRATIONS);
  module = createSandboxRailService({
    db,
    bus: createInProcessEventBus(),
    logger: createLogger({ service: "rail-attack", level: "silent" }),
    transports: {},
    env: {
      NODE_ENV: "production",
      RAIL_CALLBACK_SECRET: "test-rail-callback-secret-of-32-bytes",
      RAIL_CALLBACK_URL: "http://127.0.0.1:9/callbacks/rail",
      SANDBOX_AUTO_SETTLE_MS: "0",
    },
    mode: "distributed",
  });
  server = await listenAuthenticated({ name: "rail", module, credentials });
  base = createServiceTransport(`http://127.0.0.1:${server.port}`);
  const accepted = await railAs("ledger").submitPayout({
    txId: "tx_attack_target",
    countryCode: "NG",
    currency: "NGN",
    amount: "15000",
    destinationType: "NUBAN",
    paymentDestination: "0123456789",
    paymentDestinationCode: "058",
  });
  expect(accepted.accepted).toBe(true);
  const submitted = await db.query<{ created_at: Date }>(
    "SELECT created_at FROM rail.submissions WHERE tx_id = 'tx_attack_target'",
  );
  day = localDay(submitted.rows[0]?.created_at ?? Number.NaN);
});
afterAll(async () => {
  await server?.close();
  await module?.stop();
  await db?.close();
  await drop?.();
});

describe("doctoring the rail's settlement records in production", () => {
  it("is refused for every kind of discrepancy, whoever asks, and the records stay true", async () => {
    const kinds = [
      { kind: "DROP_RECORD", txId: "tx_attack_target" },
      { kind: "CHANGE_AMOUNT", txId: "tx_attack_target", amount: "1" },
      { kind: "FLIP_STATUS", txId: "tx_attack_target" },
      { kind: "DUPLICATE_RECORD", txId: "tx_attack_target" },
      { kind: "ADD_UNKNOWN_RECORD", amount: "500000", currency: "NGN" },
    ];
    for (const k of kinds) {
      const refused = await railAs("gateway-admin")
        .injectSettlementDiscrepancy({ date: day, ...k })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(errorDetailOf(refused)?.reason, k.kind).toBe("SANDBOX_CONTROL_DISABLED");
      expect(await codeOf(railAs("ledger").injectSettlementDiscrepancy({ date: day, ...k })), k.kind).toBe(
        Code.PermissionDenied,
      );
    }
    const planted = await db.query("SELECT 1 FROM rail.settlement_discrepancies");
    expect(planted.rows).toEqual([]);
    const { records } = await railAs("ledger").listSettlementRecords({ date: day });
    expect(records.map((r) => [r.txId, r.amount, r.currency, r.status])).toEqual([
      ["tx_attack_target", "15000", "NGN", "PENDING"],
    ]);
  });
});
