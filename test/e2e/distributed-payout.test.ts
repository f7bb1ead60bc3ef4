/**
 * End to end on the distributed topology: every service its own `node services/runtime/dist/cli.js <role>`
 * process from the built output, gRPC between them, a fresh PostgreSQL database, real Kafka, and a
 * partner receiver that verifies signatures. One payout goes through the public HTTP API from lookup to
 * refund; the sandbox rail settles it by calling the gateway back. The partner side is @payouts/client,
 * as an integrator would use it, and the receiver verifies both signatures with its verifyWebhook. A
 * @grpc/grpc-js client then talks to the running services directly.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { type CustomerRequest, createPayoutsClient, type PayoutsClient } from "@payouts/client";
import type { ServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import type { ServiceAudience } from "@payouts/platform/rpc/service-credentials";
import { Health, HealthCheckResponse_ServingStatus } from "@payouts/proto/grpc/health/v1/health_pb";
import { ErrorDetailSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import { LedgerAdminService } from "@payouts/proto/payouts/ledger/v1/ledger_admin_pb";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import { WebhookAdminService } from "@payouts/proto/payouts/webhooks/v1/webhooks_admin_pb";
import { WebhookService } from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, kafkaBrokers } from "../support/infra.js";
import {
  type DistributedTopology,
  ensureBuilt,
  REPO_ROOT,
  SERVICE_ROLES,
  startDistributedTopology,
} from "./support/distributed-topology.js";
import { GrpcJsError, grpcJsUnary, statusDetailsOf } from "./support/grpc-js-unary.js";
import { bearer, callJson, type HttpAnswer } from "./support/http-client.js";
import { type Notification, type SigningReceiver, startSigningReceiver } from "./support/signing-receiver.js";

const WEBHOOK_SECRET = `whsec-e2e-${randomBytes(8).toString("hex")}`;
const APP_VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
  .version;
const SENDER: CustomerRequest = {
  name_first: "Ana",
  name_last: "Souza",
  country: "BR",
  ic_type: "CPF",
  ic_number: "529.982.247-25",
  phone: "+55 11 98765-4321",
  email: "ana.souza@example.com",
};

let database: { url: string; drop: () => Promise<void> };
let topology: DistributedTopology | undefined;
let receiver: SigningReceiver;

beforeAll(async () => {
  ensureBuilt();
  database = await createTestDatabase();
  receiver = await startSigningReceiver(WEBHOOK_SECRET);
  topology = await startDistributedTopology({
    databaseUrl: database.url,
    kafkaBrokers: kafkaBrokers().join(","),
    env: {
      // The ledger publishes to the one events topic other tests share: a group of our own sees all of it.
      WEBHOOK_CONSUMER_GROUP: `e2e-distributed-${randomBytes(4).toString("hex")}`,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_RETRY_SCHEDULE_MS: "0,500,1000",
      SANDBOX_AUTO_SETTLE_MS: "300",
      QUOTE_TTL_MS: "600000",
    },
  });
}, 300_000);

// A failure in one process shows up as a wrong answer elsewhere: print what every process logged.
afterEach(({ task }) => {
  if (task.result?.state !== "fail" || !topology) return;
  for (const role of [...SERVICE_ROLES, "gateway"] as const) {
    console.error(`--- ${role} (last lines)\n${topology.logsOf(role).split("\n").slice(-40).join("\n")}`);
  }
});

afterAll(async () => {
  await topology?.stop();
  await receiver?.close();
  await database?.drop();
}, 120_000);

const running = () => topology!;
/** gRPC metadata carrying a caller identity's service token, addressed to one service. */
const as = async (caller: ServiceCaller, audience: ServiceAudience) => ({
  authorization: `Bearer ${await running().serviceToken(caller, audience)}`,
});
const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  callJson(`${running().adminUrl}${path}`, method, { ...bearer(running().adminToken), ...headers }, body);
/** The partner API through @payouts/client; `texts` keeps each answer's exact text (decimal renderings). */
function partnerClient(clientId: string, clientSecret: string): { client: PayoutsClient; texts: string[] } {
  const texts: string[] = [];
  const client = createPayoutsClient({
    baseUrl: running().partnerUrl,
    clientId,
    clientSecret,
    fetch: async (request) => {
      const response = await fetch(request);
      texts.push(await response.clone().text());
      return response;
    },
  });
  return { client, texts };
}

function expectStatus(answer: HttpAnswer, status: number): void {
  expect(answer.status, `${answer.status} ${answer.text}`).toBe(status);
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function balanceOf(partnerId: string): Promise<string> {
  const answer = await admin("GET", `/admin/partners/${partnerId}/balance`);
  expectStatus(answer, 200);
  return answer.json.balance_usd;
}

const bodyOf = (n: Notification) => JSON.parse(n.rawBody.toString("utf8"));

describe("a payout through the distributed topology", () => {
  it("runs lookup → quote → execute → rail settlement → refund with signed webhooks in order", async () => {
    expectStatus(await admin("PUT", "/admin/fx-rates/BRL", { rate_per_usd: "5.4" }), 200);
    expectStatus(
      await admin("PUT", "/admin/corridors/BR", {
        currency: "BRL",
        min_amount: "1",
        max_amount: "50000",
        enabled: true,
      }),
      200,
    );
    const created = await admin("POST", "/admin/partners", {
      name: "E2E partner",
      supported_currencies: ["BRL"],
      fees: { percent: "1.5", fixed_usd: "0.30" },
    });
    expectStatus(created, 201);
    const partnerId: string = created.json.partner_id;
    const appAnswer = await admin("POST", `/admin/partners/${partnerId}/apps`, {});
    expectStatus(appAnswer, 201);
    const { client: partner, texts } = partnerClient(appAnswer.json.client_id, appAnswer.json.client_secret);
    const credit = await admin(
      "POST",
      `/admin/partners/${partnerId}/balance/credits`,
      { amount_usd: "100", reference: "e2e funding" },
      { "X-Idempotency-Key": `fund-${partnerId}` },
    );
    expectStatus(credit, 201);
    expect(await balanceOf(partnerId)).toBe("100");

    await partner.createWebhookConfig({
      url: `${receiver.url}/partner`,
      secret: WEBHOOK_SECRET,
      events: ["transaction.success", "transaction.refunded"],
    });
    const customer = await partner.createCustomer(SENDER);

    const lookup = await partner.lookupPaymentCode({
      customer_id: customer.customer_id,
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "52998224725",
      payment_destination_code: "PIX",
      partner_transaction_id: "e2e-order-1",
    });
    expect(lookup).toMatchObject({
      country: "BR",
      currency: "BRL",
      partner_transaction_id: "e2e-order-1",
    });
    const txId = lookup.tx_id;
    expect(txId).toMatch(/^tx_[0-9a-z]+$/);
    expect((await partner.getTransaction(txId)).status).toBe("PENDING");

    // 54 BRL at 5.4 BRL per USD = 10 USD; fees 1.5 % (0.15) + 0.30 fixed.
    const quote = await partner.getQuotation({ tx_id: txId, amount: 54 });
    const quoteText = texts.at(-1)!;
    expect(quoteText).toContain('"exchange_rate":5.4000000000');
    expect(quoteText).toContain('"amount_usd":10.00');
    expect(quoteText).toContain('"total_usd":10.45');
    expect(quote).toMatchObject({
      tx_id: txId,
      currency: "BRL",
      fee: 0.45,
      percentage_fee: 0.15,
      fixed_fee: 0.3,
    });

    const executed = await partner.executePayout({ tx_id: txId }, { idempotencyKey: `e2e-${txId}` });
    expect(executed).toMatchObject({ idempotencyKey: `e2e-${txId}`, replayed: false, attempts: 1 });
    expect(executed.transaction).toMatchObject({
      tx_id: txId,
      status: "PROCESSING",
      amount_usd: 10,
      fee: 0.45,
    });
    expect(await balanceOf(partnerId)).toBe("89.55");

    // The sandbox rail (its own process) settles after 300 ms by calling the gateway back, signed.
    await eventually(async () => {
      const view = await partner.getTransaction(txId);
      return view.status === "SUCCESS" ? view : undefined;
    }, 30_000);
    expect(await balanceOf(partnerId)).toBe("89.55");

    // Refunded at once, so both events may be in flight together: the dispatcher must keep their order.
    const refund = await admin("POST", `/admin/transactions/${txId}/refund`, { reason: "e2e refund" });
    expectStatus(refund, 200);
    expect(refund.json).toMatchObject({
      status: "REFUNDED",
      refund_reason: "e2e refund",
      total_usd: "10.45",
    });
    expect(await balanceOf(partnerId)).toBe("100");
    // The admin fail route reaches the ledger process (FailTransaction) and refuses what is not PROCESSING.
    const fail = await admin("POST", `/admin/transactions/${txId}/fail`, { reason: "e2e" });
    expect([fail.status, fail.json.code]).toEqual([409, "TRANSACTION_NOT_PROCESSING"]);

    const [success, refunded] = await receiver.waitFor(2, 30_000);
    expect(success!.path).toBe("/partner/webhooks/transactions/success");
    expect(refunded!.path).toBe("/partner/webhooks/transactions/refunded");
    expect(receiver.notifications.map((n) => n.signatureValid)).toEqual([true, true]);
    for (const notification of [success!, refunded!]) {
      expect(notification.headers["user-agent"]).toBe(`SERVICE-Webhook/${APP_VERSION}`);
      expect(notification.headers["x-service-event-id"]).toBe(bodyOf(notification).event_id);
    }
    expect(bodyOf(success!)).toMatchObject({
      tx_id: txId,
      status: "SUCCESS",
      event_type: "transaction.success",
    });
    expect(success!.rawBody.toString()).toContain('"fee":0.45,"percentage_fee":0.15,"fixed_fee":0.30');
    expect(bodyOf(refunded!)).toMatchObject({
      tx_id: txId,
      status: "REFUNDED",
      event_type: "transaction.refunded",
      refund_reason: "e2e refund",
    });
    expect(Date.parse(bodyOf(success!).occurred_at)).toBeLessThanOrEqual(
      Date.parse(bodyOf(refunded!).occurred_at),
    );

    const view = await partner.getTransaction(txId);
    expect(view.status_history?.map((change) => change.to)).toEqual([
      "PENDING",
      "PROCESSING",
      "SUCCESS",
      "REFUNDED",
    ]);
    const log = await eventually(async () => {
      const { deliveries } = await partner.listWebhookDeliveries({ tx_id: txId });
      return deliveries.length === 2 && deliveries.every((row) => row.status === "delivered")
        ? deliveries
        : undefined;
    }, 10_000);
    expect(log.map((d) => d.event_type)).toEqual(["transaction.refunded", "transaction.success"]);
    for (const delivery of log)
      expect(JSON.parse(delivery.response_body ?? "")).toEqual({ received: true, message: "ok" });
  });
});

describe("the console's admin routes on the distributed topology", () => {
  it("search, the transaction page, the overview and the balance history answer across the processes", async () => {
    const search = await admin("GET", "/admin/transactions?status=REFUNDED&country=BR");
    expectStatus(search, 200);
    expect(search.json.transactions).toHaveLength(1);
    const [tx] = search.json.transactions;
    const page = await admin("GET", `/admin/transactions/${tx.tx_id}`);
    expectStatus(page, 200);
    expect(page.json.ledger_movements.map((m: { kind: string }) => m.kind)).toEqual([
      "payout",
      "settlement",
      "refund",
    ]);
    expect(page.json.webhook_deliveries.map((d: { status: string }) => d.status)).toEqual([
      "delivered",
      "delivered",
    ]);
    expect(page.json.webhook_deliveries[0].attempts[0].status_code).toBe(200);
    const overview = await admin("GET", "/admin/overview");
    expectStatus(overview, 200);
    expect(overview.json.payouts.last_hour.by_corridor).toContainEqual(
      expect.objectContaining({ country: "BR", currency: "BRL", status: "REFUNDED", count: 1 }),
    );
    expect(overview.json.webhooks.dead).toBe(0);
    const history = await admin("GET", `/admin/partners/${tx.partner_id}/balance/entries`);
    expectStatus(history, 200);
    expect(history.json.entries.map((e: { kind: string }) => e.kind)).toEqual(["refund", "payout", "credit"]);
    const deliveries = await admin("GET", `/admin/webhook-deliveries?tx_id=${tx.tx_id}`);
    expect(deliveries.json.deliveries).toHaveLength(2);
  });
});

describe("a @grpc/grpc-js client against the running services", () => {
  it.each(SERVICE_ROLES)("%s answers grpc.health.v1 Check with SERVING", async (role) => {
    const answer = await grpcJsUnary(running().grpcAddress(role), Health.method.check, { service: "" });
    expect(answer.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  });

  it("reads FX rates from the pricing process (PricingService.ListFxRates)", async () => {
    expectStatus(await admin("PUT", "/admin/fx-rates/KES", { rate_per_usd: "129.25" }), 200);
    const answer = await grpcJsUnary(
      running().grpcAddress("pricing"),
      PricingService.method.listFxRates,
      {},
      5_000,
      await as("gateway-admin", "pricing"),
    );
    const kes = answer.rates.find((rate) => rate.currency === "KES");
    expect(kes?.ratePerUsd).toMatch(/^129\.250*$/);
  });

  it("lists banks from the lookup process (LookupService.ListBanks)", async () => {
    const answer = await grpcJsUnary(
      running().grpcAddress("lookup"),
      LookupService.method.listBanks,
      { countryCode: "NG" },
      5_000,
      await as("gateway", "lookup"),
    );
    expect(answer.banks).toContainEqual(
      expect.objectContaining({ code: "000013", name: "Guaranty Trust Bank", type: "bank" }),
    );
  });

  it("reports a business error as a gRPC status carrying the reason in its details", async () => {
    const error = await grpcJsUnary(
      running().grpcAddress("lookup"),
      LookupService.method.listBanks,
      { countryCode: "US" },
      5_000,
      await as("gateway", "lookup"),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GrpcJsError);
    expect((error as GrpcJsError).code).toBe(grpc.status.INVALID_ARGUMENT);
    const details = statusDetailsOf((error as GrpcJsError).metadata);
    const detail = details.find((d) => d.typeUrl.endsWith(`/${ErrorDetailSchema.typeName}`));
    expect(detail, JSON.stringify(details.map((d) => d.typeUrl))).toBeDefined();
    expect(fromBinary(ErrorDetailSchema, detail!.value)).toMatchObject({
      reason: "UNSUPPORTED_COUNTRY",
      field: "country_code",
    });
  });
});

/** The status code a @grpc/grpc-js call ended with (OK when it succeeded). */
async function grpcStatusOf(call: Promise<unknown>): Promise<grpc.status> {
  try {
    await call;
    return grpc.status.OK;
  } catch (error) {
    if (!(error instanceof GrpcJsError)) throw error;
    return error.code;
  }
}

describe("service authentication between the processes", () => {
  const ledger = () => running().grpcAddress("ledger");
  it("refuses unauthenticated CreditBalance, RecordRailResult, QuoteTransaction and partner reads", async () => {
    const created = await admin("POST", "/admin/partners", { name: "E2E auth victim" });
    expectStatus(created, 201);
    const partner = { partnerId: created.json.partner_id as string };
    const forged = `Bearer gateway-admin.${"A".repeat(43)}`;
    const calls = [
      grpcJsUnary(ledger(), LedgerService.method.creditBalance, {
        partnerId: partner.partnerId,
        amountUsd: "1000000",
        reference: "unauthenticated",
      }),
      grpcJsUnary(
        ledger(),
        LedgerService.method.creditBalance,
        { partnerId: partner.partnerId, amountUsd: "1000000", reference: "forged" },
        5_000,
        { authorization: forged },
      ),
      grpcJsUnary(ledger(), LedgerService.method.recordRailResult, { txId: "tx_any", outcome: "SUCCESS" }),
      grpcJsUnary(ledger(), LedgerService.method.quoteTransaction, {
        partnerId: partner.partnerId,
        txId: "tx_any",
        amount: "1",
      }),
      grpcJsUnary(ledger(), LedgerService.method.getTransaction, { partnerId: "", txId: "tx_any" }),
      grpcJsUnary(ledger(), LedgerService.method.listTransactions, { partnerId: partner.partnerId }),
      grpcJsUnary(running().grpcAddress("webhooks"), WebhookService.method.listConfigs, {
        partnerId: partner.partnerId,
      }),
      grpcJsUnary(running().grpcAddress("pricing"), PricingService.method.putFxRate, {
        currency: "NGN",
        ratePerUsd: "1",
      }),
    ];
    expect(await Promise.all(calls.map(grpcStatusOf))).toEqual(calls.map(() => grpc.status.UNAUTHENTICATED));
    expect(await balanceOf(partner.partnerId)).toMatch(/^0(\.0*)?$/);
  });

  it("refuses a caller the allowlist does not name for the method", async () => {
    // Every token is signed before the first call starts: a call refused while a later token was still
    // being signed would reject before anything awaited it.
    const gatewayToLedger = await as("gateway", "ledger");
    const adminToLedger = await as("gateway-admin", "ledger");
    const adminToRail = await as("gateway-admin", "rail");
    const ledgerToPricing = await as("ledger", "pricing");
    const calls = [
      grpcJsUnary(
        ledger(),
        LedgerService.method.creditBalance,
        { partnerId: "ptr_x", amountUsd: "10", reference: "partner side" },
        5_000,
        gatewayToLedger,
      ),
      grpcJsUnary(
        ledger(),
        LedgerService.method.recordRailResult,
        { txId: "tx_any", outcome: "SUCCESS" },
        5_000,
        adminToLedger,
      ),
      grpcJsUnary(
        running().grpcAddress("sandbox-rail"),
        RailService.method.cancelPayout,
        { txId: "tx_any" },
        5_000,
        adminToRail,
      ),
      grpcJsUnary(
        ledger(),
        LedgerService.method.failTransaction,
        { txId: "tx_any", reason: "partner side", force: true },
        5_000,
        gatewayToLedger,
      ),
      // The ledger may ask pricing for a binding quote, and for nothing else.
      grpcJsUnary(
        running().grpcAddress("pricing"),
        PricingService.method.putFxRate,
        { currency: "NGN", ratePerUsd: "1" },
        5_000,
        ledgerToPricing,
      ),
    ];
    expect(await Promise.all(calls.map(grpcStatusOf))).toEqual(
      calls.map(() => grpc.status.PERMISSION_DENIED),
    );
    // The operators' services answer the admin identity only.
    const operatorCalls = [
      grpcJsUnary(
        ledger(),
        LedgerAdminService.method.searchTransactions,
        {},
        5_000,
        await as("gateway", "ledger"),
      ),
      grpcJsUnary(
        ledger(),
        LedgerAdminService.method.getLedgerOverview,
        {},
        5_000,
        await as("gateway-rail", "ledger"),
      ),
      grpcJsUnary(
        running().grpcAddress("webhooks"),
        WebhookAdminService.method.searchDeliveries,
        {},
        5_000,
        await as("gateway", "webhooks"),
      ),
    ];
    expect(await Promise.all(operatorCalls.map(grpcStatusOf))).toEqual(
      operatorCalls.map(() => grpc.status.PERMISSION_DENIED),
    );
    // A caller no RPC of the service names is not even authenticated there: the service holds no key for it.
    const foreign = [
      grpcJsUnary(
        running().grpcAddress("webhooks"),
        WebhookAdminService.method.setConfigActive,
        { configId: "whc_any", active: false },
        5_000,
        await as("ledger", "webhooks"),
      ),
      grpcJsUnary(
        running().grpcAddress("sandbox-rail"),
        RailService.method.submitPayout,
        { txId: "tx_any" },
        5_000,
        await as("gateway", "rail"),
      ),
    ];
    expect(await Promise.all(foreign.map(grpcStatusOf))).toEqual(
      foreign.map(() => grpc.status.UNAUTHENTICATED),
    );
    // The ledger's own identity may cancel at the rail (the PROCESSING timeout and FailTransaction ask it).
    const cancelled = await grpcJsUnary(
      running().grpcAddress("sandbox-rail"),
      RailService.method.cancelPayout,
      { txId: "tx_e2e_never_submitted", reason: "e2e" },
      5_000,
      await as("ledger", "rail"),
    );
    expect(cancelled).toMatchObject({ cancelled: true });
  });

  it("refuses an empty partner_id on partner-facing RPCs", async () => {
    const calls = [
      grpcJsUnary(
        ledger(),
        LedgerService.method.getTransaction,
        { partnerId: "", txId: "tx_any" },
        5_000,
        await as("gateway", "ledger"),
      ),
      grpcJsUnary(
        ledger(),
        LedgerService.method.quoteTransaction,
        { partnerId: "", txId: "tx_any", amount: "1" },
        5_000,
        await as("gateway", "ledger"),
      ),
      grpcJsUnary(
        running().grpcAddress("webhooks"),
        WebhookService.method.listConfigs,
        { partnerId: "" },
        5_000,
        await as("gateway", "webhooks"),
      ),
      grpcJsUnary(
        running().grpcAddress("lookup"),
        LookupService.method.getCustomer,
        { partnerId: "", customerId: "cus_any" },
        5_000,
        await as("gateway", "lookup"),
      ),
    ];
    expect(await Promise.all(calls.map(grpcStatusOf))).toEqual(calls.map(() => grpc.status.INVALID_ARGUMENT));
  });
});

describe("shutdown", () => {
  it("every process exits 0 on SIGTERM", async () => {
    const exits = await running().stop();
    expect(exits).toEqual(
      Object.fromEntries([...SERVICE_ROLES, "gateway"].map((role) => [role, { code: 0, signal: null }])),
    );
  });
});
