/**
 * The console's admin routes in the embedded mode (`npm start`): PGlite, the in-process bus and router
 * transports. The operator services and their SQL (window functions, json_agg, make_interval) must answer
 * there as on PostgreSQL: one payout settled by the sandbox rail with a webhook delivered, then every
 * console read.
 */

import { createLogger } from "@payouts/platform/logging/logger";
import { startEmbedded } from "@payouts/runtime/embedded-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../ledger/support/ledger-harness.js";
import { pendingTransaction } from "../ledger/support/payout-fixtures.js";
import { type ApiResponse, callJson } from "../support/call-json.js";
import { freePort } from "../support/free-port.js";
import { startTestReceiver, type TestReceiver } from "../webhooks/support/test-receiver.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read in assertions
type Json = any;

const ADMIN_TOKEN = "embedded-console-token-0123456789";
let runtime: Awaited<ReturnType<typeof startEmbedded>>;
let receiver: TestReceiver;
let partnerId = "";
let partnerAuth = "";
let txId = "";

const call = (base: "partner" | "admin", method: string, path: string, body?: unknown, headers = {}) => {
  const port = base === "admin" ? runtime.gateway.adminPort : runtime.gateway.partnerPort;
  const authorization = base === "admin" ? `Bearer ${ADMIN_TOKEN}` : partnerAuth;
  return callJson(`http://127.0.0.1:${port}${path}`, method, { authorization, ...headers }, body);
};
const ok = async (res: Promise<ApiResponse>, status = 200): Promise<Json> => {
  const answer = await res;
  expect(answer.status, answer.text).toBe(status);
  return answer.json;
};

beforeAll(async () => {
  receiver = await startTestReceiver();
  runtime = await startEmbedded({
    env: {
      PORT: String(await freePort()),
      ADMIN_PORT: String(await freePort()),
      HOST: "127.0.0.1",
      ADMIN_TOKEN,
      RAIL_CALLBACK_SECRET: "embedded-callback-secret-of-32-bytes",
      SANDBOX_AUTO_SETTLE_MS: "50",
      LOG_LEVEL: "silent",
    },
    logger: createLogger({ service: "embedded-console-test", level: "silent" }),
  });
  const partner = await ok(
    call("admin", "POST", "/admin/partners", {
      name: "Embedded console",
      supported_currencies: ["NGN"],
      fees: { percent: "1.5", fixed_usd: "0.30" },
    }),
    201,
  );
  partnerId = partner.partner_id;
  const app = await ok(call("admin", "POST", `/admin/partners/${partnerId}/apps`, {}), 201);
  partnerAuth = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}`;
  await ok(call("admin", "PUT", "/admin/fx-rates/NGN", { rate_per_usd: "1500" }));
  await ok(
    call("admin", "PUT", "/admin/corridors/NG", {
      currency: "NGN",
      min_amount: "100",
      max_amount: "1000000",
    }),
  );
  await ok(
    call(
      "admin",
      "POST",
      `/admin/partners/${partnerId}/balance/credits`,
      { amount_usd: "50", reference: "r" },
      {
        "X-Idempotency-Key": "embedded-console-credit",
      },
    ),
    201,
  );
  await ok(call("partner", "POST", "/webhookConfigs", { url: `${receiver.url}/hook` }), 201);
  const platformLike = { runtime } as unknown as Parameters<typeof pendingTransaction>[0];
  txId = await pendingTransaction(platformLike, partnerId);
  await ok(call("partner", "POST", "/getQuotation", { tx_id: txId, amount: 15000 }));
  await ok(
    call("partner", "POST", "/executePayout", { tx_id: txId }, { "X-Idempotency-Key": "emb-console-1" }),
  );
  await waitFor("the delivered notification", async () => {
    const page = await call("admin", "GET", `/admin/transactions/${txId}`);
    return page.json.webhook_deliveries?.[0]?.status === "delivered" || undefined;
  });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await receiver?.close();
});

describe("console routes on PGlite", () => {
  it("answers the overview, the transaction search and page", async () => {
    const overview = await ok(call("admin", "GET", "/admin/overview"));
    expect(overview.payouts.last_hour.by_corridor).toEqual([
      { country: "NG", currency: "NGN", status: "SUCCESS", count: 1, amount: "15000", debited_usd: "10.45" },
    ]);
    expect(overview.balances).toEqual({ total_usd: "39.55", in_flight_usd: "0", partners: 1 });
    expect(overview.webhooks.delivered_last_hour).toBe(1);

    const search = await ok(call("admin", "GET", "/admin/transactions?status=SUCCESS&country=NG"));
    expect(search.transactions.map((t: Json) => t.tx_id)).toEqual([txId]);
    const page = await ok(call("admin", "GET", `/admin/transactions/${txId}`));
    expect(page.ledger_movements.map((m: Json) => m.kind)).toEqual(["payout", "settlement"]);
    expect(page.status_history.map((h: Json) => h.to)).toEqual(["PENDING", "PROCESSING", "SUCCESS"]);
    expect(page.webhook_deliveries[0].attempts[0].status_code).toBe(200);
  });

  it("answers the partner list, apps, balance history and webhook lists", async () => {
    const partners = await ok(call("admin", "GET", "/admin/partners?name=embedded"));
    expect(partners.partners).toEqual([
      expect.objectContaining({ partner_id: partnerId, balance_usd: "39.55", active_apps: 1 }),
    ]);
    const apps = await ok(call("admin", "GET", `/admin/partners/${partnerId}/apps`));
    expect(apps.apps[0].secrets).toHaveLength(1);
    const history = await ok(call("admin", "GET", `/admin/partners/${partnerId}/balance/entries?limit=1`));
    expect(history.entries.map((e: Json) => e.balance_after_usd)).toEqual(["39.55"]);
    const older = await ok(
      call("admin", "GET", `/admin/partners/${partnerId}/balance/entries?cursor=${history.next_cursor}`),
    );
    expect(older.entries.map((e: Json) => [e.kind, e.balance_after_usd])).toEqual([["credit", "50"]]);

    const deliveries = await ok(call("admin", "GET", "/admin/webhook-deliveries?status=delivered"));
    expect(deliveries.deliveries.map((d: Json) => d.tx_id)).toEqual([txId]);
    const configs = await ok(call("admin", "GET", `/admin/webhook-configs?partner_id=${partnerId}`));
    const configId = configs.webhook_configs[0].config_id;
    const off = await ok(call("admin", "PATCH", `/admin/webhook-configs/${configId}`, { enabled: false }));
    expect(off).toMatchObject({ enabled: false, disabled_reason: "disabled by an operator" });
    const redeliver = await call(
      "admin",
      "POST",
      `/admin/webhook-deliveries/${deliveries.deliveries[0].delivery_id}/redeliver`,
    );
    expect([redeliver.status, redeliver.json.code]).toEqual([409, "WEBHOOK_CONFIG_INACTIVE"]);
  });
});
