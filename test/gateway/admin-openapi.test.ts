import { totpCode } from "@payouts/gateway/edge";
import { CONSOLE_ROUTES } from "@payouts/gateway/internal/admin/console-static";
import { ADMIN_OPERATIONS } from "@payouts/gateway/internal/operations/admin/admin-operations";
import { adminOpenApiDocument } from "@payouts/gateway/openapi";
import { closeDueDays } from "@payouts/ledger/internal/operations/daily-statements";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  executePayout,
  fundedPartner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "../ledger/support/payout-fixtures.js";
import { callJson } from "../support/call-json.js";
import { checkOpenApiStructure } from "../support/openapi/openapi-structure.js";
import { OpenApiContract } from "../support/openapi-contract.js";
import {
  CSRF,
  createMachineToken,
  createOperator,
  operatorCookie,
  sessionCookieOf,
} from "../support/operator-session.js";
import { justAfterGrace, localDay } from "../support/partner-days.js";
import { registeredRoutes } from "../support/registered-routes.js";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { startTestReceiver } from "../webhooks/support/test-receiver.js";

/**
 * The admin API's OpenAPI document (`GET /admin/openapi.json`) against the running admin
 * listener: served behind the token, structurally valid, exactly the listener's routes, and real answers —
 * successes and every error status the routes' own checks can give — match the documented schemas.
 */
let platform: TestPlatform;
let contract: OpenApiContract;
let partnerId: string;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000" } });
  await setUpCorridor(platform);
  const res = await platform.admin("GET", "/admin/openapi.json");
  expect(res.status).toBe(200);
  contract = new OpenApiContract(res.json);
  expect((await platform.admin("PUT", "/admin/fx-rates/BRL", { rate_per_usd: "5.4" })).status).toBe(200);
  const body = { currency: "BRL", min_amount: "1", max_amount: "50000" };
  expect((await platform.admin("PUT", "/admin/corridors/BR", body)).status).toBe(200);
});

afterAll(async () => {
  await platform?.close();
});

/** An admin call (with the token unless `token` is null) checked against the document. */
async function call(
  method: string,
  path: string,
  template: string,
  body?: unknown,
  headers: Record<string, string> = {},
  token: string | null = ADMIN_TOKEN,
) {
  const auth = token === null ? {} : { authorization: `Bearer ${token}` };
  const res = await callJson(`${platform.adminUrl}${path}`, method, { ...auth, ...headers }, body);
  return contract.check(method, template, res);
}

describe("the admin document", () => {
  it("is served behind the admin token, the same as adminOpenApiDocument()", async () => {
    const anonymous = await call("GET", "/admin/openapi.json", "/admin/openapi.json", undefined, {}, null);
    expect([anonymous.status, anonymous.json.code]).toEqual([401, "AUTHENTICATION_REQUIRED"]);
    const res = await call("GET", "/admin/openapi.json", "/admin/openapi.json");
    expect(res.json).toEqual(JSON.parse(JSON.stringify(adminOpenApiDocument())));
    expect(res.json.openapi).toBe("3.1.0");
    expect(checkOpenApiStructure(res.json)).toEqual([]);
  });

  it("documents exactly the routes of the admin listener", () => {
    // The operator console's static files (HTML, scripts, styles) are served beside the API, not part of it.
    const consoleFiles = CONSOLE_ROUTES.map((path) => `GET ${path}`);
    const api = registeredRoutes(platform.runtime.gateway.adminApp).filter((r) => !consoleFiles.includes(r));
    expect(api).toEqual(contract.routes());
  });

  it("marks only the probes, the metrics and the sign-in routes public", () => {
    const open = contract.routes().filter((route) => {
      const [method = "", path = ""] = route.split(" ");
      return contract.doc.paths[path][method.toLowerCase()].security?.length === 0;
    });
    expect(open).toEqual([
      "GET /admin/oidc/callback",
      "GET /admin/oidc/login",
      "GET /admin/sign-in-options",
      "GET /healthz",
      "GET /metrics",
      "GET /readyz",
      "POST /admin/session",
    ]);
  });
});

describe("real answers match the documented schemas", () => {
  it("partners", async () => {
    const created = await call("POST", "/admin/partners", "/admin/partners", {
      name: "Contract partner",
      supported_currencies: ["USD", "BRL"],
      fees: { percent: 1.5, fixed_usd: "0.30" },
    });
    expect(created.status).toBe(201);
    expect(created.json.fees).toEqual({ percent: "1.5", fixed_usd: "0.3" });
    partnerId = created.json.partner_id;
    const missing = await call("POST", "/admin/partners", "/admin/partners", { fees: {} });
    expect([missing.status, missing.json.code, missing.json.field]).toEqual([
      400,
      "MISSING_REQUIRED_FIELD",
      "name",
    ]);
    const negative = await call("POST", "/admin/partners", "/admin/partners", {
      name: "x",
      fees: { percent: -1 },
    });
    expect([negative.json.code, negative.json.field]).toEqual(["INVALID_FIELD", "fees.percent"]);
    const notJson = await call("POST", "/admin/partners", "/admin/partners", "{", {});
    expect(notJson.status).toBe(400);
    const wrongType = await call("POST", "/admin/partners", "/admin/partners", "name=x", {
      "content-type": "text/plain",
    });
    expect(wrongType.status).toBe(415);
    const huge = await call("POST", "/admin/partners", "/admin/partners", { name: "x".repeat(300_000) });
    expect(huge.status).toBe(413);
    const anonymous = await call("POST", "/admin/partners", "/admin/partners", { name: "x" }, {}, null);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);

    const template = "/admin/partners/{partner_id}";
    expect((await call("GET", `/admin/partners/${partnerId}`, template)).json.name).toBe("Contract partner");
    expect((await call("GET", "/admin/partners/ptr_nope", template)).json.code).toBe("PARTNER_NOT_FOUND");
    expect((await call("GET", `/admin/partners/${partnerId}`, template, undefined, {}, "wrong")).status).toBe(
      401,
    );
    const renamed = await call("PATCH", `/admin/partners/${partnerId}`, template, { name: "Renamed" });
    expect(renamed.json.name).toBe("Renamed");
    expect((await call("PATCH", "/admin/partners/ptr_nope", template, {})).status).toBe(404);
    expect((await call("PATCH", `/admin/partners/${partnerId}`, template, { name: 5 })).json.field).toBe(
      "name",
    );
    const badCurrency = await call("PATCH", `/admin/partners/${partnerId}`, template, {
      supported_currencies: ["NOPE"],
    });
    expect([badCurrency.status, badCurrency.json.code]).toEqual([400, "INVALID_FIELD"]);
    expect((await call("PATCH", `/admin/partners/${partnerId}`, template, {}, {}, null)).status).toBe(401);
    expect((await call("PATCH", `/admin/partners/${partnerId}`, template, "[", {})).status).toBe(400);
    expect(
      (await call("PATCH", `/admin/partners/${partnerId}`, template, "a", { "content-type": "text/plain" }))
        .status,
    ).toBe(415);
    expect(
      (await call("PATCH", `/admin/partners/${partnerId}`, template, { name: "y".repeat(300_000) })).status,
    ).toBe(413);
  });

  it("apps and client secrets", async () => {
    const apps = `/admin/partners/${partnerId}/apps`;
    const appsTemplate = "/admin/partners/{partner_id}/apps";
    const app = await call("POST", apps, appsTemplate, { preview_rate_limit_per_minute: 30 });
    expect([app.status, app.json.preview_rate_limit_per_minute]).toEqual([201, 30]);
    const clientId: string = app.json.client_id;
    const tooHigh = await call("POST", apps, appsTemplate, { preview_rate_limit_per_minute: 0 });
    expect([tooHigh.status, tooHigh.json.field]).toEqual([400, "preview_rate_limit_per_minute"]);
    expect((await call("POST", "/admin/partners/ptr_nope/apps", appsTemplate, {})).status).toBe(404);
    expect((await call("POST", apps, appsTemplate, {}, {}, null)).status).toBe(401);
    expect((await call("POST", apps, appsTemplate, "x", {})).status).toBe(400);
    expect((await call("POST", apps, appsTemplate, "x", { "content-type": "text/plain" })).status).toBe(415);
    expect((await call("POST", apps, appsTemplate, { x: "y".repeat(300_000) })).status).toBe(413);

    const secrets = `${apps}/${clientId}/secrets`;
    const secretsTemplate = "/admin/partners/{partner_id}/apps/{client_id}/secrets";
    const second = await call("POST", secrets, secretsTemplate);
    expect(second.status).toBe(201);
    expect((await call("POST", secrets, secretsTemplate)).json.code).toBe("TOO_MANY_SECRETS");
    expect((await call("POST", `${apps}/ci_nope/secrets`, secretsTemplate)).status).toBe(404);
    expect((await call("POST", secrets, secretsTemplate, undefined, {}, null)).status).toBe(401);
    const list = await call("GET", secrets, secretsTemplate);
    expect(list.json.secrets).toHaveLength(2);
    expect((await call("GET", `${apps}/ci_nope/secrets`, secretsTemplate)).status).toBe(404);
    expect((await call("GET", secrets, secretsTemplate, undefined, {}, null)).status).toBe(401);

    const secretTemplate = `${secretsTemplate}/{secret_id}`;
    const revoked = await call("DELETE", `${secrets}/${second.json.secret_id}`, secretTemplate);
    expect(revoked.status).toBe(204);
    expect((await call("DELETE", `${secrets}/${app.json.secret_id}`, secretTemplate)).json.code).toBe(
      "LAST_SECRET",
    );
    expect((await call("DELETE", `${secrets}/sec_nope`, secretTemplate)).status).toBe(404);
    expect((await call("DELETE", `${secrets}/sec_nope`, secretTemplate, undefined, {}, null)).status).toBe(
      401,
    );

    const appTemplate = "/admin/partners/{partner_id}/apps/{client_id}";
    expect((await call("DELETE", `${apps}/${clientId}`, appTemplate)).status).toBe(204);
    expect((await call("POST", secrets, secretsTemplate)).json.code).toBe("APP_REVOKED");
    expect((await call("DELETE", `${apps}/ci_nope`, appTemplate)).status).toBe(404);
    expect((await call("DELETE", `${apps}/ci_nope`, appTemplate, undefined, {}, null)).status).toBe(401);
  });
});

describe("real answers match the documented schemas (money and reference data)", () => {
  it("FX rates and corridors", async () => {
    const rate = "/admin/fx-rates/{currency}";
    expect((await call("PUT", "/admin/fx-rates/KES", rate, { rate_per_usd: 129.25 })).json).toMatchObject({
      currency: "KES",
      rate_per_usd: "129.25",
    });
    expect((await call("PUT", "/admin/fx-rates/KES", rate, {})).json.code).toBe("MISSING_REQUIRED_FIELD");
    expect((await call("PUT", "/admin/fx-rates/KES", rate, { rate_per_usd: "x" })).json.field).toBe(
      "rate_per_usd",
    );
    expect((await call("PUT", "/admin/fx-rates/KES", rate, {}, {}, null)).status).toBe(401);
    expect((await call("PUT", "/admin/fx-rates/KES", rate, "{", {})).status).toBe(400);
    expect(
      (await call("PUT", "/admin/fx-rates/KES", rate, "1", { "content-type": "text/plain" })).status,
    ).toBe(415);
    expect((await call("PUT", "/admin/fx-rates/KES", rate, { x: "y".repeat(300_000) })).status).toBe(413);
    const list = await call("GET", "/admin/fx-rates", "/admin/fx-rates");
    expect(list.json.fx_rates.map((r: { currency: string }) => r.currency)).toContain("KES");
    expect((await call("GET", "/admin/fx-rates", "/admin/fx-rates", undefined, {}, null)).status).toBe(401);
    expect((await call("DELETE", "/admin/fx-rates/KES", rate)).status).toBe(204);
    expect((await call("DELETE", "/admin/fx-rates/KES", rate)).json.code).toBe("FX_RATE_NOT_FOUND");
    expect((await call("DELETE", "/admin/fx-rates/KES", rate, undefined, {}, null)).status).toBe(401);
    expect((await call("DELETE", "/admin/fx-rates/nope", rate)).status).toBe(400);

    const corridor = "/admin/corridors/{country_code}";
    const body = { currency: "KES", min_amount: 10, max_amount: "250000" };
    expect((await call("PUT", "/admin/corridors/KE", corridor, body)).json).toEqual({
      country_code: "KE",
      currency: "KES",
      min_amount: "10",
      max_amount: "250000",
      enabled: true,
    });
    const precise = await call("PUT", "/admin/corridors/KE", corridor, { ...body, min_amount: "10.001" });
    expect([precise.status, precise.json.code]).toEqual([400, "INVALID_AMOUNT"]);
    expect((await call("PUT", "/admin/corridors/KE", corridor, { currency: "KES" })).json.field).toBe(
      "min_amount",
    );
    expect((await call("PUT", "/admin/corridors/KE", corridor, body, {}, null)).status).toBe(401);
    expect((await call("PUT", "/admin/corridors/KE", corridor, "{", {})).status).toBe(400);
    expect(
      (await call("PUT", "/admin/corridors/KE", corridor, "1", { "content-type": "text/plain" })).status,
    ).toBe(415);
    expect((await call("PUT", "/admin/corridors/KE", corridor, { x: "y".repeat(300_000) })).status).toBe(413);
    expect((await call("GET", "/admin/corridors", "/admin/corridors")).json.corridors.length).toBeGreaterThan(
      1,
    );
    expect((await call("GET", "/admin/corridors", "/admin/corridors", undefined, {}, null)).status).toBe(401);
  });

  it("balance credits, balance, refund, fail and sandbox settlement", async () => {
    const credits = `/admin/partners/${partnerId}/balance/credits`;
    const creditTemplate = "/admin/partners/{partner_id}/balance/credits";
    const key = { "x-idempotency-key": "contract-credit-1" };
    const credited = await call("POST", credits, creditTemplate, { amount_usd: 100, reference: "w1" }, key);
    expect(credited.json).toEqual({ partner_id: partnerId, balance_usd: "100" });
    const replay = await call("POST", credits, creditTemplate, { amount_usd: 100, reference: "w1" }, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const reused = await call("POST", credits, creditTemplate, { amount_usd: 5, reference: "w1" }, key);
    expect(reused.status).toBe(422);
    // IDEMPOTENCY_KEY_IN_USE needs a request arriving while another with its key runs: a burst of them.
    let inUse = 0;
    for (let round = 0; inUse === 0 && round < 10; round++) {
      const burst = { "x-idempotency-key": `contract-burst-${round}` };
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call("POST", credits, creditTemplate, { amount_usd: 1, reference: "b" }, burst),
        ),
      );
      inUse = answers.filter((a) => a.status === 409).length;
    }
    expect(inUse).toBeGreaterThan(0);
    const cents = await call("POST", credits, creditTemplate, { amount_usd: "1.001", reference: "w" }, key);
    expect([cents.json.code, cents.json.field]).toEqual(["INVALID_AMOUNT", "amount_usd"]);
    expect((await call("POST", credits, creditTemplate, { amount_usd: 1 }, key)).json.field).toBe(
      "reference",
    );
    const noKey = await call("POST", credits, creditTemplate, { amount_usd: 1, reference: "w" });
    expect(noKey.json.code).toBe("MISSING_IDEMPOTENCY_KEY");
    const body = { amount_usd: 1, reference: "w" };
    const other = { "x-idempotency-key": "contract-credit-2" };
    expect(
      (await call("POST", "/admin/partners/ptr_nope/balance/credits", creditTemplate, body, other)).status,
    ).toBe(404);
    expect((await call("POST", credits, creditTemplate, body, other, null)).status).toBe(401);
    expect((await call("POST", credits, creditTemplate, "{", other)).status).toBe(400);
    expect(
      (await call("POST", credits, creditTemplate, "1", { ...other, "content-type": "text/plain" })).status,
    ).toBe(415);
    expect((await call("POST", credits, creditTemplate, { x: "y".repeat(300_000) }, other)).status).toBe(413);

    const balanceTemplate = "/admin/partners/{partner_id}/balance";
    expect(
      (await call("GET", `/admin/partners/${partnerId}/balance`, balanceTemplate)).json.balance_usd,
    ).toMatch(/^1\d\d$/);
    expect((await call("GET", "/admin/partners/ptr_nope/balance", balanceTemplate)).status).toBe(404);
    expect(
      (await call("GET", `/admin/partners/${partnerId}/balance`, balanceTemplate, undefined, {}, null))
        .status,
    ).toBe(401);

    const settings = `/admin/partners/${partnerId}/statement-settings`;
    const settingsTemplate = "/admin/partners/{partner_id}/statement-settings";
    expect((await call("GET", settings, settingsTemplate)).json).toEqual({
      partner_id: partnerId,
      time_zone: "UTC",
    });
    const lagos = await call("PUT", settings, settingsTemplate, { time_zone: "Africa/Lagos" });
    expect(lagos.json.time_zone).toBe("Africa/Lagos");
    const badZone = await call("PUT", settings, settingsTemplate, { time_zone: "Nowhere/Land" });
    expect([badZone.status, badZone.json.code, badZone.json.field]).toEqual([
      400,
      "INVALID_FIELD",
      "time_zone",
    ]);
    const nobody = "/admin/partners/ptr_nope/statement-settings";
    expect((await call("GET", nobody, settingsTemplate)).status).toBe(404);
    expect((await call("PUT", nobody, settingsTemplate, { time_zone: "UTC" })).status).toBe(404);
    expect((await call("GET", settings, settingsTemplate, undefined, {}, null)).status).toBe(401);
    expect((await call("PUT", settings, settingsTemplate, { time_zone: "UTC" }, {}, null)).status).toBe(401);
    expect(
      (await call("PUT", settings, settingsTemplate, "1", { "content-type": "text/plain" })).status,
    ).toBe(415);
    expect((await call("PUT", settings, settingsTemplate, { x: "y".repeat(300_000) })).status).toBe(413);

    // Corrections of a closed day: the partner's today (in Lagos, its zone now) is not closed yet, so a
    // correction of it is refused; the ledger's closer, run just after today's grace period, closes it.
    const correctionTemplate = "/admin/partners/{partner_id}/statements/{date}/corrections";
    const today = localDay(Date.now(), "Africa/Lagos");
    const corrections = `/admin/partners/${partnerId}/statements/${today}/corrections`;
    const fix = { amount_usd: "1", note: "fee returned" };
    const fixKey = (k: string) => ({ "x-idempotency-key": k });
    const notClosed = await call("POST", corrections, correctionTemplate, fix, fixKey("fix-open"));
    expect([notClosed.status, notClosed.json.code]).toEqual([409, "STATEMENT_DAY_NOT_CLOSED"]);
    await closeDayForTest(platform, justAfterGrace(today, "Africa/Lagos", 600_000));
    const corrected = await call("POST", corrections, correctionTemplate, fix, fixKey("fix-1"));
    expect([corrected.status, corrected.json.revision], corrected.text).toEqual([201, 2]);
    const fixReused = await call(
      "POST",
      corrections,
      correctionTemplate,
      { ...fix, note: "other" },
      fixKey("fix-1"),
    );
    expect(fixReused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
    const zero = await call(
      "POST",
      corrections,
      correctionTemplate,
      { ...fix, amount_usd: "0" },
      fixKey("fix-0"),
    );
    expect([zero.status, zero.json.code]).toEqual([400, "INVALID_AMOUNT"]);
    expect((await call("POST", corrections, correctionTemplate, fix)).json.code).toBe(
      "MISSING_IDEMPOTENCY_KEY",
    );
    const nobodyFix = `/admin/partners/ptr_nope/statements/${today}/corrections`;
    expect((await call("POST", nobodyFix, correctionTemplate, fix, fixKey("fix-n"))).status).toBe(404);
    expect((await call("POST", corrections, correctionTemplate, fix, fixKey("fix-a"), null)).status).toBe(
      401,
    );
    expect(
      (
        await call("POST", corrections, correctionTemplate, "1", {
          ...fixKey("fix-t"),
          "content-type": "text/plain",
        })
      ).status,
    ).toBe(415);
    expect(
      (await call("POST", corrections, correctionTemplate, { x: "y".repeat(300_000) }, fixKey("fix-b")))
        .status,
    ).toBe(413);

    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId);
    const refund = "/admin/transactions/{tx_id}/refund";
    const fail = "/admin/transactions/{tx_id}/fail";
    const settle = "/admin/sandbox/transactions/{tx_id}/settle";
    expect((await call("POST", `/admin/transactions/${txId}/refund`, refund, {})).json.code).toBe(
      "TRANSACTION_NOT_REFUNDABLE",
    );
    expect((await call("POST", "/admin/transactions/tx_nope/refund", refund, {})).status).toBe(404);
    expect((await call("POST", `/admin/transactions/${txId}/refund`, refund, { reason: 5 })).status).toBe(
      400,
    );
    expect((await call("POST", `/admin/transactions/${txId}/refund`, refund, {}, {}, null)).status).toBe(401);
    expect(
      (
        await call("POST", `/admin/transactions/${txId}/refund`, refund, "x", {
          "content-type": "text/plain",
        })
      ).status,
    ).toBe(415);
    expect(
      (await call("POST", `/admin/transactions/${txId}/refund`, refund, { reason: "y".repeat(300_000) }))
        .status,
    ).toBe(413);
    expect((await call("POST", `/admin/transactions/${txId}/fail`, fail, { reason: "r" })).status).toBe(409);
    expect((await call("POST", "/admin/transactions/tx_nope/fail", fail, { reason: "r" })).status).toBe(404);
    expect((await call("POST", `/admin/transactions/${txId}/fail`, fail, {})).status).toBe(400);
    expect((await call("POST", `/admin/transactions/${txId}/fail`, fail, {}, {}, null)).status).toBe(401);
    expect(
      (await call("POST", `/admin/transactions/${txId}/fail`, fail, "x", { "content-type": "text/plain" }))
        .status,
    ).toBe(415);
    expect(
      (await call("POST", `/admin/transactions/${txId}/fail`, fail, { reason: "y".repeat(300_000) })).status,
    ).toBe(413);
    expect(
      (await call("POST", `/admin/sandbox/transactions/${txId}/settle`, settle, { outcome: "SUCCESS" }))
        .status,
    ).toBe(404);
    const badOutcome = await call("POST", `/admin/sandbox/transactions/${txId}/settle`, settle, {
      outcome: "MAYBE",
    });
    expect([badOutcome.status, badOutcome.json.field]).toEqual([400, "outcome"]);
    expect(
      (await call("POST", `/admin/sandbox/transactions/${txId}/settle`, settle, {}, {}, null)).status,
    ).toBe(401);
    expect(
      (
        await call("POST", `/admin/sandbox/transactions/${txId}/settle`, settle, "x", {
          "content-type": "text/plain",
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await call("POST", `/admin/sandbox/transactions/${txId}/settle`, settle, {
          reason: "y".repeat(300_000),
        })
      ).status,
    ).toBe(413);

    await quoted(platform, partner, txId);
    expect((await executePayout(platform, partner, txId, "contract-payout")).status).toBe(200);
    const settled = await call("POST", `/admin/sandbox/transactions/${txId}/settle`, settle, {
      outcome: "SUCCESS",
    });
    expect(settled.json).toEqual({ tx_id: txId, outcome: "SUCCESS", delivered: true, status: "SUCCESS" });
    const conflict = await call("POST", `/admin/sandbox/transactions/${txId}/settle`, settle, {
      outcome: "FAILED",
    });
    expect(conflict.json.code).toBe("PAYOUT_ALREADY_SETTLED");
    const refunded = await call("POST", `/admin/transactions/${txId}/refund`, refund, {
      reason: "customer asked",
    });
    expect(refunded.json).toMatchObject({ tx_id: txId, status: "REFUNDED", refund_reason: "customer asked" });

    const stuck = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, stuck);
    expect((await executePayout(platform, partner, stuck, "contract-payout-2")).status).toBe(200);
    const forced = await call("POST", `/admin/transactions/${stuck}/fail`, fail, {
      reason: "not paid",
      force: true,
    });
    expect(forced.json).toMatchObject({ status: "FAILED", failure_reason: "not paid" });
  });

  it("probes and metrics", async () => {
    expect((await call("GET", "/healthz", "/healthz", undefined, {}, null)).json).toEqual({ status: "ok" });
    expect((await call("GET", "/readyz", "/readyz", undefined, {}, null)).json).toEqual({ status: "ready" });
    const metrics = await call("GET", "/metrics", "/metrics", undefined, {}, null);
    expect([200, 404]).toContain(metrics.status);
  });
});

describe("real answers match the documented schemas (console routes)", () => {
  it("overview, transaction search and page, partners, apps, rate limit, balance history, webhooks", async () => {
    const receiver = await startTestReceiver();
    try {
      const partner = await fundedPartner(platform, "100");
      const config = await platform.partner(partner, "POST", "/webhookConfigs", {
        url: `${receiver.url}/contract`,
        secret: "contract-webhook-secret-0123456789",
      });
      expect(config.status, config.text).toBe(201);
      const txId = await pendingTransaction(platform, partner.partnerId, {
        partnerTransactionId: "contract-1",
      });
      await quoted(platform, partner, txId);
      expect((await executePayout(platform, partner, txId, "contract-console")).status).toBe(200);
      const settled = await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
        outcome: "SUCCESS",
      });
      expect(settled.status).toBe(200);
      await receiver.waitFor(1);
      const anon = (method: string, path: string, template: string, body?: unknown) =>
        call(method, path, template, body, {}, null);

      const overview = await call("GET", "/admin/overview", "/admin/overview");
      expect(overview.json.payouts.last_hour.total).toBeGreaterThan(0);
      expect((await anon("GET", "/admin/overview", "/admin/overview")).status).toBe(401);

      const search = await call(
        "GET",
        `/admin/transactions?partner_id=${partner.partnerId}`,
        "/admin/transactions",
      );
      expect(search.json.transactions.map((t: { tx_id: string }) => t.tx_id)).toEqual([txId]);
      expect((await call("GET", "/admin/transactions?status=NOPE", "/admin/transactions")).status).toBe(400);
      expect((await anon("GET", "/admin/transactions", "/admin/transactions")).status).toBe(401);

      const page = "/admin/transactions/{tx_id}";
      let detail = await call("GET", `/admin/transactions/${txId}`, page);
      for (let i = 0; i < 300 && detail.json.webhook_deliveries[0]?.status !== "delivered"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        detail = await call("GET", `/admin/transactions/${txId}`, page);
      }
      expect(detail.json.webhook_deliveries[0].attempts[0].status_code).toBe(200);
      expect((await call("GET", "/admin/transactions/tx_nope", page)).status).toBe(404);
      expect((await anon("GET", `/admin/transactions/${txId}`, page)).status).toBe(401);

      expect((await call("GET", "/admin/partners?limit=1", "/admin/partners")).json.partners).toHaveLength(1);
      expect((await anon("GET", "/admin/partners", "/admin/partners")).status).toBe(401);
      const apps = "/admin/partners/{partner_id}/apps";
      expect((await call("GET", `/admin/partners/${partner.partnerId}/apps`, apps)).json.apps).toHaveLength(
        1,
      );
      expect((await call("GET", "/admin/partners/ptr_nope/apps", apps)).status).toBe(404);
      expect((await anon("GET", `/admin/partners/${partner.partnerId}/apps`, apps)).status).toBe(401);

      const app = "/admin/partners/{partner_id}/apps/{client_id}";
      const appPath = `/admin/partners/${partner.partnerId}/apps/${partner.clientId}`;
      const limit = { preview_rate_limit_per_minute: 90 };
      expect((await call("PATCH", appPath, app, limit)).json.preview_rate_limit_per_minute).toBe(90);
      expect((await call("PATCH", appPath, app, {})).json.code).toBe("MISSING_REQUIRED_FIELD");
      expect(
        (await call("PATCH", `/admin/partners/${partner.partnerId}/apps/ci_nope`, app, limit)).status,
      ).toBe(404);
      const spare = await platform.admin("POST", `/admin/partners/${partner.partnerId}/apps`, {});
      await platform.admin("DELETE", `/admin/partners/${partner.partnerId}/apps/${spare.json.client_id}`);
      const revoked = await call(
        "PATCH",
        `/admin/partners/${partner.partnerId}/apps/${spare.json.client_id}`,
        app,
        limit,
      );
      expect(revoked.json.code).toBe("APP_REVOKED");
      expect((await anon("PATCH", appPath, app, limit)).status).toBe(401);
      expect((await call("PATCH", appPath, app, "{", {})).status).toBe(400);
      expect((await call("PATCH", appPath, app, "x", { "content-type": "text/plain" })).status).toBe(415);
      expect((await call("PATCH", appPath, app, { x: "y".repeat(300_000) })).status).toBe(413);

      const entries = "/admin/partners/{partner_id}/balance/entries";
      const history = await call("GET", `/admin/partners/${partner.partnerId}/balance/entries`, entries);
      expect(history.json.entries.map((e: { kind: string }) => e.kind)).toEqual(["payout", "credit"]);
      expect((await call("GET", "/admin/partners/ptr_nope/balance/entries", entries)).status).toBe(404);
      expect(
        (await anon("GET", `/admin/partners/${partner.partnerId}/balance/entries`, entries)).status,
      ).toBe(401);

      const deliveries = "/admin/webhook-deliveries";
      const listed = await call("GET", `${deliveries}?tx_id=${txId}`, deliveries);
      const deliveryId: string = listed.json.deliveries[0].delivery_id;
      expect((await anon("GET", deliveries, deliveries)).status).toBe(401);
      const configs = "/admin/webhook-configs";
      expect(
        (await call("GET", `${configs}?partner_id=${partner.partnerId}`, configs)).json.webhook_configs,
      ).toHaveLength(1);
      expect((await anon("GET", configs, configs)).status).toBe(401);

      const switchTemplate = "/admin/webhook-configs/{config_id}";
      const switchPath = `/admin/webhook-configs/${config.json.config_id}`;
      const off = await call("PATCH", switchPath, switchTemplate, { enabled: false, reason: "contract" });
      expect(off.json).toMatchObject({ enabled: false, disabled_reason: "contract", has_secret: true });
      const redeliver = "/admin/webhook-deliveries/{delivery_id}/redeliver";
      const redeliverPath = `/admin/webhook-deliveries/${deliveryId}/redeliver`;
      expect((await call("POST", redeliverPath, redeliver)).json.code).toBe("WEBHOOK_CONFIG_INACTIVE");
      expect((await call("PATCH", switchPath, switchTemplate, { enabled: true })).json.enabled).toBe(true);
      expect((await call("POST", redeliverPath, redeliver)).json.status).toBe("pending");
      expect((await call("POST", "/admin/webhook-deliveries/whd_nope/redeliver", redeliver)).status).toBe(
        404,
      );
      expect((await anon("POST", redeliverPath, redeliver)).status).toBe(401);
      expect(
        (await call("PATCH", "/admin/webhook-configs/whc_nope", switchTemplate, { enabled: true })).status,
      ).toBe(404);
      expect((await call("PATCH", switchPath, switchTemplate, {})).json.field).toBe("enabled");
      expect((await anon("PATCH", switchPath, switchTemplate, { enabled: true })).status).toBe(401);
      expect((await call("PATCH", switchPath, switchTemplate, "{", {})).status).toBe(400);
      expect(
        (await call("PATCH", switchPath, switchTemplate, "x", { "content-type": "text/plain" })).status,
      ).toBe(415);
      expect((await call("PATCH", switchPath, switchTemplate, { x: "y".repeat(300_000) })).status).toBe(413);
      await receiver.waitFor(2);

      const receivers = "/admin/webhook-receivers";
      const health = await call("GET", `${receivers}?partner_id=${partner.partnerId}`, receivers);
      expect(health.json.receivers).toEqual([
        expect.objectContaining({ config_id: config.json.config_id, paused: false, circuit_state: "closed" }),
      ]);
      expect((await anon("GET", receivers, receivers)).status).toBe(401);
      for (const action of ["pause", "resume"]) {
        const template = `/admin/webhook-receivers/{config_id}/${action}`;
        const path = `/admin/webhook-receivers/${config.json.config_id}/${action}`;
        expect((await call("POST", path, template)).json.paused).toBe(action === "pause");
        expect((await call("POST", `/admin/webhook-receivers/whc_nope/${action}`, template)).status).toBe(
          404,
        );
        expect((await anon("POST", path, template)).status).toBe(401);
      }
    } finally {
      await receiver.close();
    }
  });
});

describe("real answers match the documented schemas (reconciliation)", () => {
  it("sandbox discrepancies, runs, breaks and their resolution", async () => {
    const anon = (method: string, path: string, template: string, body?: unknown) =>
      call(method, path, template, body, {}, null);
    const day = new Date().toISOString().slice(0, 10);
    const plantTemplate = "/admin/sandbox/settlements/{date}/discrepancies";
    const plant = `/admin/sandbox/settlements/${day}/discrepancies`;
    const planted = await call("POST", plant, plantTemplate, { kind: "ADD_UNKNOWN_RECORD", amount: "12.5" });
    expect(planted.status, planted.text).toBe(201);
    expect((await call("POST", plant, plantTemplate, { kind: "BURN" })).json.field).toBe("kind");
    expect((await call("POST", plant, plantTemplate, { kind: "DROP_RECORD" })).json.code).toBe(
      "MISSING_REQUIRED_FIELD",
    );
    expect((await anon("POST", plant, plantTemplate, { kind: "DROP_RECORD" })).status).toBe(401);
    expect((await call("POST", plant, plantTemplate, "x", { "content-type": "text/plain" })).status).toBe(
      415,
    );
    expect((await call("POST", plant, plantTemplate, { kind: "x".repeat(300_000) })).status).toBe(413);

    const runs = "/admin/reconciliation/runs";
    const run = await call("POST", runs, runs, { date: day, started_by: "contract" });
    expect(run.status, run.text).toBe(200);
    // The planted record, and whatever the payouts of the tests above left for the day.
    expect(run.json).toMatchObject({ status: "COMPLETED", started_by: "contract" });
    expect(run.json.breaks_opened).toBeGreaterThanOrEqual(1);
    expect((await call("POST", runs, runs, { date: "2026-02-30" })).json.field).toBe("date");
    expect((await call("POST", runs, runs, { date: day, rail: "elsewhere" })).json.code).toBe("UNKNOWN_RAIL");
    expect((await anon("POST", runs, runs, { date: day })).status).toBe(401);
    expect((await call("POST", runs, runs, "x", { "content-type": "text/plain" })).status).toBe(415);
    expect((await call("POST", runs, runs, { date: "x".repeat(300_000) })).status).toBe(413);
    const listed = await call("GET", `${runs}?date=${day}&limit=1`, runs);
    expect(listed.json.runs.map((r: { run_id: string }) => r.run_id)).toEqual([run.json.run_id]);
    expect((await call("GET", `${runs}?cursor=nope`, runs)).json.field).toBe("cursor");
    expect((await anon("GET", runs, runs)).status).toBe(401);

    const breaks = "/admin/reconciliation/breaks";
    const found = await call(
      "GET",
      `${breaks}?run_id=${run.json.run_id}&state=open&type=missing_in_ledger`,
      breaks,
    );
    expect(found.json.breaks.map((b: { type: string }) => b.type)).toEqual(["missing_in_ledger"]);
    expect((await call("GET", `${breaks}?type=lost`, breaks)).json.field).toBe("type");
    expect((await call("GET", `${breaks}?run_id=rcn_01m7xx9726hzfmmn1fcz6t8605`, breaks)).status).toBe(404);
    expect((await anon("GET", breaks, breaks)).status).toBe(401);

    const resolveTemplate = "/admin/reconciliation/breaks/{break_id}/resolve";
    const resolve = `${breaks}/${found.json.breaks[0].break_id}/resolve`;
    const resolved = await call("POST", resolve, resolveTemplate, {
      note: "planted",
      resolved_by: "contract",
    });
    expect(resolved.json.resolution).toMatchObject({ note: "planted", resolved_by: "contract" });
    const again = await call("POST", resolve, resolveTemplate, { note: "again", resolved_by: "contract" });
    expect([again.status, again.json.code]).toEqual([409, "BREAK_ALREADY_RESOLVED"]);
    expect((await call("POST", resolve, resolveTemplate, { note: "", resolved_by: "x" })).status).toBe(400);
    const unknown = `${breaks}/brk_01m7xx9726hzfmmn1fcz6t8605/resolve`;
    expect((await call("POST", unknown, resolveTemplate, { note: "n", resolved_by: "x" })).status).toBe(404);
    expect((await anon("POST", resolve, resolveTemplate, { note: "n", resolved_by: "x" })).status).toBe(401);
    expect((await call("POST", resolve, resolveTemplate, "x", { "content-type": "text/plain" })).status).toBe(
      415,
    );
    expect((await call("POST", resolve, resolveTemplate, { note: "x".repeat(300_000) })).status).toBe(413);
  });
});

describe("real answers match the documented schemas (bulk payouts)", () => {
  it("every partner's batches, a batch, its items, and cancelling one", async () => {
    const owner = await platform.createPartner();
    const item = {
      item_ref: "adm-1",
      amount: 25,
      partner_transaction_id: "adm-ptx-1",
      customer_id: "cus_nobody",
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "52998224725",
      payment_destination_code: "PIX",
    };
    const created = await platform.partner(
      owner,
      "POST",
      "/batches",
      { items: [item] },
      {
        "x-idempotency-key": "adm-batch",
      },
    );
    expect(created.status, created.text).toBe(202);
    const batchId: string = created.json.batch_id;

    const list = "/admin/batches";
    const page = await call("GET", `${list}?partner_id=${owner.partnerId}`, list);
    expect(page.json.batches.map((b: { batch_id: string }) => b.batch_id)).toEqual([batchId]);
    expect((await call("GET", `${list}?status=VALIDATING&limit=5`, list)).status).toBe(200);
    expect((await call("GET", `${list}?status=NOPE`, list)).json.field).toBe("status");
    expect((await call("GET", `${list}?nope=1`, list)).status).toBe(400);
    expect((await call("GET", list, list, undefined, {}, null)).status).toBe(401);

    const one = "/admin/batches/{batch_id}";
    const batch = await call("GET", `${list}/${batchId}`, one);
    expect(batch.json).toMatchObject({ batch_id: batchId, partner_id: owner.partnerId });
    expect((await call("GET", `${list}/bat_nope`, one)).status).toBe(404);
    expect((await call("GET", `${list}/${batchId}?x=1`, one)).status).toBe(400);
    expect((await call("GET", `${list}/${batchId}`, one, undefined, {}, null)).status).toBe(401);

    const items = "/admin/batches/{batch_id}/items";
    const report = await call("GET", `${list}/${batchId}/items`, items);
    expect(report.json.items.map((i: { item_ref: string }) => i.item_ref)).toEqual(["adm-1"]);
    expect((await call("GET", `${list}/bat_nope/items`, items)).status).toBe(404);
    expect((await call("GET", `${list}/${batchId}/items?limit=0`, items)).status).toBe(400);
    expect((await call("GET", `${list}/${batchId}/items`, items, undefined, {}, null)).status).toBe(401);

    const cancel = "/admin/batches/{batch_id}/cancel";
    const cancelled = await call("POST", `${list}/${batchId}/cancel`, cancel);
    expect(cancelled.json.status).toBe("CANCELLED");
    expect(cancelled.json.cancel_reason).toMatch(/^cancelled by operator /);
    expect((await call("POST", `${list}/${batchId}/cancel`, cancel)).status).toBe(409);
    expect((await call("POST", `${list}/bat_nope/cancel`, cancel)).status).toBe(404);
    expect((await call("POST", `${list}/${batchId}/cancel`, cancel, undefined, {}, null)).status).toBe(401);
  });
});

describe("real answers match the documented schemas (four-eyes approvals)", () => {
  let gated: TestPlatform;

  beforeAll(async () => {
    gated = await startTestPlatform({
      env: { FOUR_EYES_APPROVALS: "true", FOUR_EYES_CREDIT_THRESHOLD_USD: "0" },
    });
    await setUpCorridor(gated);
  });
  afterAll(async () => {
    await gated?.close();
  });

  /** An admin call to the platform with four-eyes on, checked against the same document. */
  async function gatedCall(
    method: string,
    path: string,
    template: string,
    body?: unknown,
    headers: Record<string, string> = {},
    token: string | null = ADMIN_TOKEN,
  ) {
    const auth = token === null ? {} : { authorization: `Bearer ${token}` };
    const res = await callJson(`${gated.adminUrl}${path}`, method, { ...auth, ...headers }, body);
    return contract.check(method, template, res);
  }

  it("gated actions answer 202; the inbox, one request, reject and the refusals", async () => {
    const partner = await gated.createPartner({ supported_currencies: ["NGN"] });
    const credits = "/admin/partners/{partner_id}/balance/credits";
    const creditPath = `/admin/partners/${partner.partnerId}/balance/credits`;
    const key = { "X-Idempotency-Key": "gated-credit-1" };
    const credit = await gatedCall("POST", creditPath, credits, { amount_usd: "10", reference: "w" }, key);
    expect([credit.status, credit.json.status]).toEqual([202, "PENDING"]);
    const txId = await pendingTransaction(gated, partner.partnerId);
    const refund = await gatedCall(
      "POST",
      `/admin/transactions/${txId}/refund`,
      "/admin/transactions/{tx_id}/refund",
      {},
    );
    expect([refund.status, refund.json.action]).toEqual([202, "REFUND"]);
    const fail = await gatedCall(
      "POST",
      `/admin/transactions/${txId}/fail`,
      "/admin/transactions/{tx_id}/fail",
      {
        reason: "r",
        force: true,
      },
    );
    expect([fail.status, fail.json.action]).toEqual([202, "FORCE_FAIL"]);

    const list = "/admin/approvals";
    expect((await gatedCall("GET", `${list}?status=PENDING`, list)).json.approvals).toHaveLength(3);
    expect((await gatedCall("GET", `${list}?status=SOON`, list)).status).toBe(400);
    expect((await gatedCall("GET", list, list, undefined, {}, null)).status).toBe(401);

    const one = "/admin/approvals/{approval_id}";
    const id = credit.json.approval_id;
    expect((await gatedCall("GET", `${list}/${id}`, one)).json).toEqual(credit.json);
    expect((await gatedCall("GET", `${list}/apr_nope`, one)).status).toBe(404);
    expect((await gatedCall("GET", `${list}/${id}`, one, undefined, {}, null)).status).toBe(401);

    const approve = "/admin/approvals/{approval_id}/approve";
    expect((await gatedCall("POST", `${list}/${id}/approve`, approve)).json.code).toBe(
      "APPROVAL_BY_REQUESTER",
    );
    expect((await gatedCall("POST", `${list}/apr_nope/approve`, approve)).status).toBe(404);
    expect((await gatedCall("POST", `${list}/${id}/approve`, approve, undefined, {}, null)).status).toBe(401);

    const reject = "/admin/approvals/{approval_id}/reject";
    const why = { reason: "not today" };
    expect((await gatedCall("POST", `${list}/${id}/reject`, reject, {})).status).toBe(400);
    expect((await gatedCall("POST", `${list}/apr_nope/reject`, reject, why)).status).toBe(404);
    expect((await gatedCall("POST", `${list}/${id}/reject`, reject, why, {}, null)).status).toBe(401);
    expect(
      (await gatedCall("POST", `${list}/${id}/reject`, reject, "x", { "content-type": "text/plain" })).status,
    ).toBe(415);
    expect(
      (await gatedCall("POST", `${list}/${id}/reject`, reject, { reason: "y".repeat(300_000) })).status,
    ).toBe(413);
    const rejected = await gatedCall("POST", `${list}/${id}/reject`, reject, why);
    expect([rejected.status, rejected.json.status]).toEqual([200, "REJECTED"]);
    expect((await gatedCall("POST", `${list}/${id}/reject`, reject, why)).json.code).toBe(
      "APPROVAL_ALREADY_DECIDED",
    );
    expect((await gatedCall("POST", `${list}/${id}/approve`, approve)).json.code).toBe(
      "APPROVAL_ALREADY_DECIDED",
    );

    // Decided by named operators: an operator below finance may not, another finance operator approves.
    const asOperator = { cookie: await operatorCookie(gated, "operator"), ...CSRF };
    const asFinance = { cookie: await operatorCookie(gated, "finance"), ...CSRF };
    const refundId = refund.json.approval_id;
    const low = await gatedCall("POST", `${list}/${refundId}/reject`, reject, why, asOperator, null);
    expect([low.status, low.json.code]).toEqual([403, "APPROVAL_ROLE_REQUIRED"]);
    const approved = await gatedCall(
      "POST",
      `${list}/${refundId}/approve`,
      approve,
      undefined,
      asFinance,
      null,
    );
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json).toMatchObject({
      status: "APPROVED",
      outcome: { succeeded: false, code: "TRANSACTION_NOT_REFUNDABLE" },
    });
  });
});

describe("real answers match the documented schemas (audit trail)", () => {
  it("the list, its CSV export and the chain check", async () => {
    const anon = (path: string, template: string) => call("GET", path, template, undefined, {}, null);
    const list = await call("GET", "/admin/audit?limit=2", "/admin/audit");
    expect(list.status).toBe(200);
    expect(list.json.records.length).toBe(2);
    const next = await call("GET", `/admin/audit?limit=2&cursor=${list.json.next_cursor}`, "/admin/audit");
    expect(next.status).toBe(200);
    expect((await call("GET", "/admin/audit?cursor=eA", "/admin/audit")).status).toBe(400);
    expect((await call("GET", "/admin/audit?outcome=maybe", "/admin/audit")).status).toBe(400);
    expect((await anon("/admin/audit", "/admin/audit")).status).toBe(401);
    const csv = "/admin/audit/export.csv";
    const exported = await call("GET", `${csv}?outcome=succeeded`, csv);
    expect(exported.status).toBe(200);
    expect(exported.text.split("\r\n")[0]).toMatch(/^sequence,at,actor_id,/);
    expect((await call("GET", `${csv}?from=yesterday`, csv)).status).toBe(400);
    expect((await anon(csv, csv)).status).toBe(401);
    const check = "/admin/audit/verification";
    const verdict = await call("GET", check, check);
    expect(verdict.json).toMatchObject({ ok: true, broken_at: null, problem: null });
    expect(verdict.json.verified_through).toBe(verdict.json.head_sequence);
    expect((await call("GET", `${check}?x=1`, check)).status).toBe(400);
    expect((await anon(check, check)).status).toBe(401);
  });
});

describe("real answers match the documented schemas (sessions and roles)", () => {
  it("sign-in, who-am-I and sign-out", async () => {
    const operator = await createOperator(platform, "operator");
    const session = "/admin/session";
    const signedIn = await call("POST", session, session, {
      username: operator.username,
      password: operator.password,
      totp: totpCode(operator.totpSecret),
    });
    expect(signedIn.status).toBe(201);
    const cookie = { cookie: sessionCookieOf(signedIn) };
    const wrong = { username: operator.username, password: "wrong-password", totp: "000000" };
    expect((await call("POST", session, session, wrong, {}, null)).json.code).toBe("INVALID_SIGN_IN");
    expect((await call("POST", session, session, { username: "x" }, {}, null)).status).toBe(400);
    expect((await call("POST", session, session, "{", {}, null)).status).toBe(400);
    expect((await call("POST", session, session, "x", { "content-type": "text/plain" }, null)).status).toBe(
      415,
    );
    expect((await call("POST", session, session, { x: "y".repeat(300_000) }, {}, null)).status).toBe(413);
    let throttled = 0;
    for (let i = 0; i < 12 && throttled === 0; i++) {
      if ((await call("POST", session, session, wrong, {}, null)).status === 429) throttled++;
    }
    expect(throttled).toBe(1);

    expect((await call("GET", session, session, undefined, cookie, null)).json.name).toBe(operator.username);
    expect((await call("GET", session, session, undefined, {}, null)).status).toBe(401);
    const noCsrf = await call("DELETE", session, session, undefined, cookie, null);
    expect([noCsrf.status, noCsrf.json.code]).toEqual([403, "CSRF_HEADER_REQUIRED"]);
    expect((await call("DELETE", session, session, undefined, { ...cookie, ...CSRF }, null)).status).toBe(
      200,
    );
    expect((await call("DELETE", session, session, undefined, cookie, null)).status).toBe(401);
    const options = "/admin/sign-in-options";
    expect((await call("GET", options, options, undefined, {}, null)).json).toEqual({
      password: true,
      oidc: false,
    });
    const login = "/admin/oidc/login";
    expect((await call("GET", login, login, undefined, {}, null)).json.code).toBe("OIDC_NOT_CONFIGURED");
    const back = "/admin/oidc/callback";
    expect((await call("GET", `${back}?code=x&state=y`, back, undefined, {}, null)).status).toBe(404);
  });

  it("answers 403 ROLE_FORBIDDEN to a role below the operation's, on every such route", async () => {
    const viewer = await createMachineToken(platform, "viewer");
    const restricted = ADMIN_OPERATIONS.filter((op) => op.role !== undefined && op.role !== "viewer");
    expect(restricted.length).toBeGreaterThan(15);
    for (const op of restricted) {
      const path = op.path.replace(/\{\w+\}/g, "x");
      const body = op.body ? {} : undefined;
      const res = await call(op.method, path, op.path, body, {}, viewer);
      expect([res.status, res.json.code], `${op.method} ${op.path}`).toEqual([403, "ROLE_FORBIDDEN"]);
    }
  });
});

describe("coverage", () => {
  it("answers 400 naming the parameter for a NUL in the query, on every route", async () => {
    for (const route of contract.routes()) {
      const [method = "", template = ""] = route.split(" ");
      const path = template.replace(/\{\w+\}/g, "x");
      const res = await call(method, `${path}?q=%00`, template);
      expect([res.status, res.json.field], route).toEqual([400, "q"]);
    }
  });

  it("has seen every documented status of every route", () => {
    // Not staged here: 500 and 503 need a broken or unreachable dependency; /readyz's 503 needs the
    // database gone; /metrics answers 200 or 404 depending on whether telemetry runs in the process.
    // The OpenID Connect routes' answers with a provider configured: test/gateway/oidc-sign-in.test.ts.
    const staged = (s: string) =>
      / (500|503)$/.test(s) ||
      s === "GET /metrics 200" ||
      s === "GET /metrics 404" ||
      /^GET \/admin\/oidc\/\w+ (303|401|403)$/.test(s);
    expect(contract.unseen(staged)).toEqual([]);
  });
});

/** Runs the ledger's statement closer as it would run at `at`. */
async function closeDayForTest(p: TestPlatform, at: Date): Promise<void> {
  const db = createPgDatabase({ connectionString: p.databaseUrl, maxConnections: 2 });
  try {
    await closeDueDays(db, at, 600_000);
  } finally {
    await db.close();
  }
}
