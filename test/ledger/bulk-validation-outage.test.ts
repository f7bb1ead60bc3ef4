/**
 * Validation of bulk payout items when lookup or pricing does not answer: the item is left VALIDATING and
 * its work row is due again later (backoff), never marked INVALID; a refusal, once one is answered, makes
 * it INVALID with that refusal's code and field. The batch operations and the validation worker run on a
 * fresh real PostgreSQL database, with lookup and pricing as scriptable stand-ins.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import type { BatchDeps } from "@payouts/ledger/internal/batches/operations/batch-deps";
import { createBatch } from "@payouts/ledger/internal/batches/operations/create-batch";
import { claimWork } from "@payouts/ledger/internal/batches/store/work-queue";
import { validateItem } from "@payouts/ledger/internal/batches/workers/validate-item";
import { loadLedgerConfig } from "@payouts/ledger/internal/config";
import { LedgerFailure } from "@payouts/ledger/internal/domain/ledger-failure";
import { LEDGER_MIGRATIONS } from "@payouts/ledger/ledger-service";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createLogger } from "@payouts/platform/logging/logger";
import { serviceError } from "@payouts/platform/rpc/service-error";
import { DestinationSchema, QuoteSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import { BatchItemInputSchema } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

type LookupMode = "down" | "refuse" | "resolve";
type PricingMode = "down" | "price";

let database: { url: string; drop: () => Promise<void> };
let db: Database;
let lookupMode: LookupMode = "down";
let pricingMode: PricingMode = "price";
let now = new Date("2026-11-28T12:00:00Z");

const lookupTransport = createRouterTransport((router) =>
  router.service(LookupService, {
    async resolveDestination(req) {
      if (lookupMode === "down") throw new ConnectError("lookup unavailable", Code.Unavailable);
      if (lookupMode === "refuse") {
        throw serviceError<"INVALID_PAYMENT_DESTINATION">("INVALID_PAYMENT_DESTINATION", "bad check digit", {
          field: "payment_destination",
        });
      }
      return {
        destination: create(DestinationSchema, {
          countryCode: req.countryCode,
          currency: "BRL",
          paymentDestination: req.paymentDestination,
          recipient: { name: "Ana Silva" },
        }),
      };
    },
  }),
);

function deps(): BatchDeps {
  return {
    db,
    config: loadLedgerConfig({ RAIL_RETRY_INTERVAL_MS: "1000" }),
    logger: createLogger({ service: "test", level: "silent" }),
    now: () => now,
    committed: () => {},
    lookup: createClient(LookupService, lookupTransport),
    pricer: {
      async price(request) {
        if (pricingMode === "down") {
          throw new LedgerFailure("SERVICE_UNAVAILABLE", "the pricing service did not answer; retry later");
        }
        return create(QuoteSchema, {
          quoteId: "q_1",
          amount: request.amount,
          currency: request.currency,
          exchangeRate: "5",
          amountUsd: "20",
          percentageFee: "0.2",
          fixedFee: "0.5",
          fee: "0.7",
          totalUsd: "20.7",
          expiresAt: { seconds: BigInt(Math.floor(now.getTime() / 1000) + 600), nanos: 0 },
        });
      },
    },
    submit: async () => {},
    workQueued: () => {},
  };
}

const ITEM = create(BatchItemInputSchema, {
  itemRef: "only",
  amount: "100",
  destination: { countryCode: "BR", paymentMethod: "payment_key", paymentDestination: "52998224725" },
});

async function itemRow(batchId: string) {
  const res = await db.query<{
    status: string;
    error_code: string;
    error_field: string;
    verified_name: string;
  }>("SELECT status, error_code, error_field, verified_name FROM ledger.batch_items WHERE batch_id = $1", [
    batchId,
  ]);
  return res.rows[0];
}

async function workRow(batchId: string) {
  const res = await db.query<{
    attempts: number;
    available_at: Date;
    last_error: string;
    lease_until: Date | null;
  }>("SELECT attempts, available_at, last_error, lease_until FROM ledger.batch_work WHERE batch_id = $1", [
    batchId,
  ]);
  return res.rows[0];
}

/** Claims the batch's due validation row (as a worker would) and validates it. */
async function validateDue(): Promise<number> {
  const rows = await claimWork(db, "validate", now, 60_000, 10);
  for (const row of rows) await validateItem(deps(), row, 1_000);
  return rows.length;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPgDatabase({ connectionString: database.url, maxConnections: 5 });
  await migrate(db, LEDGER_MIGRATIONS);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

describe("a dependency that does not answer", () => {
  it("leaves the item VALIDATING and retries it later; a refusal then makes it INVALID with its code", async () => {
    const { batch } = await createBatch(deps(), {
      partnerId: "p_outage",
      items: [ITEM],
      requiredApprovals: 1,
      nameMismatchPolicy: 0,
      contentSha256: "",
      source: "json",
      idempotencyKey: "",
      fingerprint: "",
      requestId: "",
    });
    const batchId = batch.batchId;

    lookupMode = "down";
    expect(await validateDue()).toBe(1);
    expect(await itemRow(batchId)).toMatchObject({ status: "VALIDATING", error_code: "" });
    const backedOff = await workRow(batchId);
    expect(backedOff).toMatchObject({ attempts: 1, lease_until: null, last_error: "lookup unavailable" });
    expect(backedOff?.available_at.getTime()).toBeGreaterThan(now.getTime());
    // Not due yet: nothing is claimed until the backoff has passed.
    expect(await validateDue()).toBe(0);

    // Lookup answers, pricing does not: still not the item's fault.
    now = new Date(now.getTime() + 60_000);
    lookupMode = "resolve";
    pricingMode = "down";
    expect(await validateDue()).toBe(1);
    expect(await itemRow(batchId)).toMatchObject({ status: "VALIDATING", error_code: "" });
    expect((await workRow(batchId))?.attempts).toBe(2);

    // A refusal is the item's: INVALID with the code and field lookup answered, and the work is done.
    now = new Date(now.getTime() + 60_000);
    lookupMode = "refuse";
    pricingMode = "price";
    expect(await validateDue()).toBe(1);
    expect(await itemRow(batchId)).toMatchObject({
      status: "INVALID",
      error_code: "INVALID_PAYMENT_DESTINATION",
      error_field: "payment_destination",
    });
    expect(await workRow(batchId)).toBeUndefined();
    const done = await db.query<{ status: string }>("SELECT status FROM ledger.batches WHERE batch_id = $1", [
      batchId,
    ]);
    expect(done.rows[0]?.status).toBe("VALIDATED");
  });

  it("validates an item once both answer: PENDING with its transaction, total and verified name", async () => {
    lookupMode = "resolve";
    pricingMode = "price";
    const { batch } = await createBatch(deps(), {
      partnerId: "p_outage",
      items: [create(BatchItemInputSchema, { ...ITEM, expectedName: "SILVA ana" })],
      requiredApprovals: 1,
      nameMismatchPolicy: 0,
      contentSha256: "",
      source: "json",
      idempotencyKey: "",
      fingerprint: "",
      requestId: "",
    });
    expect(await validateDue()).toBe(1);
    const res = await db.query<{ status: string; total_usd: string; tx_id: string; name_match: string }>(
      "SELECT status, total_usd::text, tx_id, name_match FROM ledger.batch_items WHERE batch_id = $1",
      [batch.batchId],
    );
    expect(res.rows[0]).toMatchObject({ status: "PENDING", name_match: "MATCH" });
    expect(Number(res.rows[0]?.total_usd)).toBe(20.7);
    const tx = await db.query<{ batch_id: string; item_ref: string; status: string }>(
      "SELECT batch_id, item_ref, status FROM ledger.transactions WHERE tx_id = $1",
      [res.rows[0]?.tx_id],
    );
    expect(tx.rows[0]).toEqual({ batch_id: batch.batchId, item_ref: "only", status: "PENDING" });
  });
});
