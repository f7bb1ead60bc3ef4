/**
 * The console's partner routes on real PostgreSQL: the partner list with balances, a partner's
 * apps with their secrets' ids (never a secret), an app's previewQuotations limit (enforced at once), and
 * the balance history with a running balance that chains across pages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  executePayout,
  fundedPartner,
  type Partner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "../ledger/support/payout-fixtures.js";
import { callJson } from "../support/call-json.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read in assertions
type Json = any;

describe("console partner routes", () => {
  let platform: TestPlatform;
  let acme: Partner;
  let zenith: Partner;
  let payoutTx: string;

  const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    platform.admin(method, path, body, headers);

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000" } });
    await setUpCorridor(platform);
    acme = await fundedPartner(platform, "100");
    await admin("PATCH", `/admin/partners/${acme.partnerId}`, { name: "Acme 100% Wallet" });
    zenith = await fundedPartner(platform, "0");
    await admin("PATCH", `/admin/partners/${zenith.partnerId}`, { name: "Zenith_Pay" });
    payoutTx = await pendingTransaction(platform, acme.partnerId);
    await quoted(platform, acme, payoutTx);
    expect((await executePayout(platform, acme, payoutTx, `key-${payoutTx}`)).status).toBe(200);
    const settled = await admin("POST", `/admin/sandbox/transactions/${payoutTx}/settle`, {
      outcome: "SUCCESS",
    });
    expect(settled.status, settled.text).toBe(200);
    const refund = await admin("POST", `/admin/transactions/${payoutTx}/refund`, { reason: "duplicate" });
    expect(refund.status, refund.text).toBe(200);
    const second = await admin(
      "POST",
      `/admin/partners/${acme.partnerId}/balance/credits`,
      { amount_usd: "25.5", reference: "wire 2026-11-25" },
      { "X-Idempotency-Key": `second-${acme.partnerId}` },
    );
    expect(second.status, second.text).toBe(201);
  });
  afterAll(() => platform?.close());

  describe("GET /admin/partners", () => {
    it("lists partners newest first with balances and active apps, filters by name, pages", async () => {
      const res = await admin("GET", "/admin/partners");
      expect(res.status, res.text).toBe(200);
      expect(res.json.partners).toEqual([
        expect.objectContaining({
          partner_id: zenith.partnerId,
          name: "Zenith_Pay",
          active_apps: 1,
          balance_usd: "0",
          in_flight_usd: "0",
        }),
        expect.objectContaining({
          partner_id: acme.partnerId,
          name: "Acme 100% Wallet",
          balance_usd: "125.5",
          in_flight_usd: "0",
        }),
      ]);
      const named = async (name: string) =>
        (await admin("GET", `/admin/partners?name=${encodeURIComponent(name)}`)).json.partners.map(
          (p: Json) => p.partner_id,
        );
      expect(await named("acme")).toEqual([acme.partnerId]);
      // LIKE wildcards are plain text.
      expect(await named("100%")).toEqual([acme.partnerId]);
      expect(await named("%")).toEqual([acme.partnerId]);
      expect(await named("zenith_")).toEqual([zenith.partnerId]);
      expect(await named("zeni_h")).toEqual([]);

      const first = await admin("GET", "/admin/partners?limit=1");
      expect(first.json.partners.map((p: Json) => p.partner_id)).toEqual([zenith.partnerId]);
      const next = await admin("GET", `/admin/partners?limit=1&cursor=${first.json.next_cursor}`);
      expect(next.json.partners.map((p: Json) => p.partner_id)).toEqual([acme.partnerId]);
      expect(next.json.next_cursor).toBeNull();
    });

    it.each([
      ["limit=0", "limit"],
      ["cursor=ptr_nobody", "cursor"],
      [`name=${"n".repeat(201)}`, "name"],
      ["q=acme", "q"],
      ["name=", "name"],
      ["cursor=", "cursor"],
    ])("refuses %s naming %s", async (query, field) => {
      const res = await admin("GET", `/admin/partners?${query}`);
      expect([res.status, res.json.code, res.json.field]).toEqual([400, "INVALID_FIELD", field]);
    });
  });

  describe("apps", () => {
    it("lists a partner's apps with their secrets' ids and times, never a secret or a hash", async () => {
      const added = await admin("POST", `/admin/partners/${acme.partnerId}/apps/${acme.clientId}/secrets`);
      expect(added.status, added.text).toBe(201);
      const revokedApp = await admin("POST", `/admin/partners/${acme.partnerId}/apps`, {
        preview_rate_limit_per_minute: 5,
      });
      await admin("DELETE", `/admin/partners/${acme.partnerId}/apps/${revokedApp.json.client_id}`);

      const res = await admin("GET", `/admin/partners/${acme.partnerId}/apps`);
      expect(res.status, res.text).toBe(200);
      expect(res.text).not.toContain(acme.clientSecret);
      expect(res.text).not.toContain(added.json.client_secret);
      expect(res.text).not.toContain("scrypt");
      const [newest, original] = res.json.apps;
      expect(newest).toMatchObject({
        client_id: revokedApp.json.client_id,
        preview_rate_limit_per_minute: 5,
      });
      expect(newest.revoked_at).not.toBeNull();
      expect(original).toMatchObject({
        client_id: acme.clientId,
        partner_id: acme.partnerId,
        revoked_at: null,
      });
      expect(original.secrets.map((s: Json) => s.secret_id)).toEqual([
        added.json.secret_id,
        expect.stringMatching(/^sec_/),
      ]);
      expect(Object.keys(original.secrets[0]).sort()).toEqual(["created_at", "revoked_at", "secret_id"]);

      const missing = await admin("GET", "/admin/partners/ptr_nobody/apps");
      expect([missing.status, missing.json.code]).toEqual([404, "PARTNER_NOT_FOUND"]);
    });

    it("sets an app's previewQuotations limit, enforced at once", async () => {
      const preview = () =>
        platform.partner(zenith, "POST", "/previewQuotations", { amount: 100, currency: "USD" });
      expect((await preview()).status).toBe(200);
      const set = await admin("PATCH", `/admin/partners/${zenith.partnerId}/apps/${zenith.clientId}`, {
        preview_rate_limit_per_minute: 1,
      });
      expect(set.status, set.text).toBe(200);
      expect(set.json).toMatchObject({
        client_id: zenith.clientId,
        partner_id: zenith.partnerId,
        preview_rate_limit_per_minute: 1,
        revoked_at: null,
      });
      const statuses = [(await preview()).status, (await preview()).status];
      expect(statuses).toContain(429);
      const apps = await admin("GET", `/admin/partners/${zenith.partnerId}/apps`);
      expect(apps.json.apps[0].preview_rate_limit_per_minute).toBe(1);
    });

    it("refuses bad limits, unknown and revoked apps", async () => {
      const path = `/admin/partners/${acme.partnerId}/apps/${acme.clientId}`;
      const revoked = (await admin("GET", `/admin/partners/${acme.partnerId}/apps`)).json.apps[0].client_id;
      const cases: [string, unknown, number, string, string?][] = [
        [path, {}, 400, "MISSING_REQUIRED_FIELD", "preview_rate_limit_per_minute"],
        [path, { preview_rate_limit_per_minute: 0 }, 400, "INVALID_FIELD", "preview_rate_limit_per_minute"],
        [path, { preview_rate_limit_per_minute: 1.5 }, 400, "INVALID_FIELD", "preview_rate_limit_per_minute"],
        [
          path,
          { preview_rate_limit_per_minute: "60" },
          400,
          "INVALID_FIELD",
          "preview_rate_limit_per_minute",
        ],
        [
          `/admin/partners/${zenith.partnerId}/apps/${acme.clientId}`,
          { preview_rate_limit_per_minute: 9 },
          404,
          "APP_NOT_FOUND",
        ],
        [
          `/admin/partners/${acme.partnerId}/apps/${revoked}`,
          { preview_rate_limit_per_minute: 9 },
          409,
          "APP_REVOKED",
        ],
      ];
      for (const [target, body, status, code, field] of cases) {
        const res = await admin("PATCH", target, body);
        expect([res.status, res.json.code, res.json.field], JSON.stringify(body)).toEqual([
          status,
          code,
          field,
        ]);
      }
      const apps = await admin("GET", `/admin/partners/${acme.partnerId}/apps`);
      expect(
        apps.json.apps.find((a: Json) => a.client_id === acme.clientId).preview_rate_limit_per_minute,
      ).toBe(platform.runtime.gateway.deps.config.defaultPreviewRateLimitPerMinute);
    });
  });

  describe("GET /admin/partners/{partner_id}/balance/entries", () => {
    it("answers every balance line newest first with the balance after it", async () => {
      const res = await admin("GET", `/admin/partners/${acme.partnerId}/balance/entries`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.balance_usd).toBe("125.5");
      expect(
        res.json.entries.map((e: Json) => [e.kind, e.amount_usd, e.balance_after_usd, e.tx_id, e.reference]),
      ).toEqual([
        ["credit", "25.5", "125.5", null, "wire 2026-11-25"],
        ["refund", "10.45", "100", payoutTx, "SUCCESS -> REFUNDED"],
        ["payout", "-10.45", "89.55", payoutTx, "PENDING -> PROCESSING"],
        ["credit", "100", "100", null, "test funding"],
      ]);
      expect(res.json.next_cursor).toBeNull();
    });

    it("chains the running balance across pages", async () => {
      const seen: Json[] = [];
      let cursor: string | null = "";
      for (let i = 0; cursor !== null && i < 10; i++) {
        const page: Json = await admin(
          "GET",
          `/admin/partners/${acme.partnerId}/balance/entries?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        );
        expect(page.status, page.text).toBe(200);
        seen.push(...page.json.entries);
        cursor = page.json.next_cursor;
      }
      expect(seen.map((e) => e.balance_after_usd)).toEqual(["125.5", "100", "89.55", "100"]);
      for (let i = 0; i + 1 < seen.length; i++) {
        // The balance after an entry minus its amount is the balance after the one before it.
        expect(Number(seen[i].balance_after_usd) - Number(seen[i].amount_usd)).toBeCloseTo(
          Number(seen[i + 1].balance_after_usd),
          12,
        );
      }
    });

    it("answers an empty history for a partner never credited, and refuses bad cursors and unknown partners", async () => {
      const empty = await admin("GET", `/admin/partners/${zenith.partnerId}/balance/entries`);
      expect(empty.json).toEqual({
        partner_id: zenith.partnerId,
        balance_usd: "0",
        entries: [],
        next_cursor: null,
      });
      const bad = await admin("GET", `/admin/partners/${acme.partnerId}/balance/entries?cursor=abc`);
      expect([bad.status, bad.json.code, bad.json.field]).toEqual([400, "INVALID_FIELD", "cursor"]);
      const missing = await admin("GET", "/admin/partners/ptr_nobody/balance/entries");
      expect([missing.status, missing.json.code]).toEqual([404, "PARTNER_NOT_FOUND"]);
    });
  });

  it("answers none of these routes without the admin token, or with a wrong one", async () => {
    const routes: [string, string, unknown?][] = [
      ["GET", "/admin/partners"],
      ["GET", `/admin/partners/${acme.partnerId}/apps`],
      [
        "PATCH",
        `/admin/partners/${acme.partnerId}/apps/${acme.clientId}`,
        { preview_rate_limit_per_minute: 2 },
      ],
      ["GET", `/admin/partners/${acme.partnerId}/balance/entries`],
    ];
    for (const [method, path, body] of routes) {
      for (const headers of [{}, { authorization: "Bearer wrong-token" }]) {
        const res = await callJson(`${platform.adminUrl}${path}`, method, headers, body);
        expect([res.status, res.json.code], path).toEqual([401, "AUTHENTICATION_REQUIRED"]);
        expect(res.text).not.toContain("balance_usd");
      }
    }
  });
});
