/**
 * The console's webhook routes on the whole platform with real PostgreSQL and real Kafka: a
 * receiver that fails until its deliveries die, found across partners, its config disabled (no new
 * deliveries, no redelivery) and enabled again, the dead delivery redelivered and delivered.
 */
import { randomBytes } from "node:crypto";
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
import { startTestReceiver, type TestReceiver } from "../webhooks/support/test-receiver.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read in assertions
type Json = any;

const SECRET = "console-webhook-secret-0123456789";
const PASSWORD = "basic-auth-password-42";

async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("console webhook routes", () => {
  let platform: TestPlatform;
  let receiver: TestReceiver;
  let healthy = false;
  let alpha: Partner;
  let beta: Partner;
  let alphaConfig: string;
  let betaConfig: string;
  let alphaTx: string;
  let betaTx: string;

  const admin = (method: string, path: string, body?: unknown) => platform.admin(method, path, body);

  async function settledPayout(partner: Partner): Promise<string> {
    const txId = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    expect((await executePayout(platform, partner, txId, `key-${txId}`)).status).toBe(200);
    const settle = await admin("POST", `/admin/sandbox/transactions/${txId}/settle`, { outcome: "SUCCESS" });
    expect(settle.status, settle.text).toBe(200);
    return txId;
  }

  const deliveriesOf = async (query: string) => {
    const res = await admin("GET", `/admin/webhook-deliveries?${query}`);
    expect(res.status, res.text).toBe(200);
    return res.json.deliveries as Json[];
  };

  beforeAll(async () => {
    platform = await startTestPlatform({
      kafka: true,
      env: {
        WEBHOOK_CONSUMER_GROUP: `console-wh-${randomBytes(4).toString("hex")}`,
        WEBHOOK_RETRY_SCHEDULE_MS: "0,100",
        QUOTE_TTL_MS: "600000",
      },
    });
    await setUpCorridor(platform);
    receiver = await startTestReceiver((request) =>
      request.path.startsWith("/alpha/") && !healthy
        ? { status: 500, body: "receiver down" }
        : { status: 200, body: "{}" },
    );
    alpha = await fundedPartner(platform, "100");
    beta = await fundedPartner(platform, "100");
    const a = await platform.partner(alpha, "POST", "/webhookConfigs", {
      url: `${receiver.url}/alpha`,
      secret: SECRET,
      basic_auth: { username: "ops", password: PASSWORD },
    });
    const b = await platform.partner(beta, "POST", "/webhookConfigs", { url: `${receiver.url}/beta` });
    expect([a.status, b.status]).toEqual([201, 201]);
    alphaConfig = a.json.config_id;
    betaConfig = b.json.config_id;
    alphaTx = await settledPayout(alpha);
    betaTx = await settledPayout(beta);
    await eventually("the dead delivery", async () => {
      const dead = await deliveriesOf("status=dead");
      return dead.length === 1 ? dead : undefined;
    });
    await eventually("beta's delivery", async () => {
      const done = await deliveriesOf(`partner_id=${beta.partnerId}&status=delivered`);
      return done.length === 1 ? done : undefined;
    });
  });
  afterAll(async () => {
    await platform?.close();
    await receiver?.close();
  });

  describe("GET /admin/webhook-deliveries", () => {
    it("lists deliveries across partners, newest first, each attempt with its status code and timing", async () => {
      const all = await deliveriesOf("");
      // Newest first by delivery id; the two events may reach the dispatcher in either order (two keys).
      expect(all.map((d) => d.delivery_id)).toEqual(
        all
          .map((d) => d.delivery_id)
          .sort()
          .reverse(),
      );
      expect(all.map((d) => [d.partner_id, d.tx_id, d.status]).sort()).toEqual(
        [
          [beta.partnerId, betaTx, "delivered"],
          [alpha.partnerId, alphaTx, "dead"],
        ].sort(),
      );
      const dead = all.find((d) => d.tx_id === alphaTx);
      expect(dead).toMatchObject({
        config_id: alphaConfig,
        event_type: "transaction.success",
        attempt_count: 2,
        last_status_code: 500,
        delivered_at: null,
        next_attempt_at: null,
      });
      expect(dead.attempts.map((a: Json) => [a.attempt, a.status_code])).toEqual([
        [1, 500],
        [2, 500],
      ]);
      for (const attempt of dead.attempts) {
        expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
        expect(Date.parse(attempt.attempted_at)).toBeGreaterThan(0);
      }
      expect(all.find((d) => d.tx_id === betaTx).attempts).toEqual([
        expect.objectContaining({ attempt: 1, status_code: 200, error: null }),
      ]);
    });

    it("filters by status, event type, partner, transaction and config, and pages with the cursor", async () => {
      const ids = async (query: string) => (await deliveriesOf(query)).map((d) => d.tx_id);
      expect(await ids("status=dead")).toEqual([alphaTx]);
      expect(await ids("status=delivered")).toEqual([betaTx]);
      expect(await ids("status=pending")).toEqual([]);
      expect((await ids("event_type=transaction.success")).sort()).toEqual([betaTx, alphaTx].sort());
      expect(await ids("event_type=transaction.refunded")).toEqual([]);
      // Every notified type is a valid filter, those without a delivery here included.
      expect(await ids("event_type=statement.closed")).toEqual([]);
      expect(await ids("event_type=batch.completed")).toEqual([]);
      expect(await ids(`partner_id=${alpha.partnerId}`)).toEqual([alphaTx]);
      expect(await ids(`tx_id=${betaTx}`)).toEqual([betaTx]);
      expect(await ids(`tx_id=${betaTx}&partner_id=${alpha.partnerId}`)).toEqual([]);
      expect(await ids(`config_id=${alphaConfig}`)).toEqual([alphaTx]);

      const newestFirst = (await deliveriesOf("")).map((d) => d.tx_id);
      const first = await admin("GET", "/admin/webhook-deliveries?limit=1");
      const second = await admin("GET", `/admin/webhook-deliveries?limit=1&cursor=${first.json.next_cursor}`);
      expect([...first.json.deliveries, ...second.json.deliveries].map((d: Json) => d.tx_id)).toEqual(
        newestFirst,
      );
      expect(second.json.next_cursor).toBeNull();
    });

    it.each([
      ["status=failed", "status"],
      ["event_type=transaction.created", "event_type"],
      ["limit=500", "limit"],
      ["cursor=garbage", "cursor"],
      [`cursor=${Buffer.from(JSON.stringify({ after: "x y" })).toString("base64url")}`, "cursor"],
      ["outcome=dead", "outcome"],
      ["status=", "status"],
      ["event_type=", "event_type"],
      ["partner_id=", "partner_id"],
      ["config_id=", "config_id"],
    ])("refuses %s as 400 INVALID_FIELD naming %s", async (query, field) => {
      const res = await admin("GET", `/admin/webhook-deliveries?${query}`);
      expect([res.status, res.json.code, res.json.field], res.text).toEqual([400, "INVALID_FIELD", field]);
    });
  });

  describe("GET /admin/webhook-configs", () => {
    it("lists every partner's receivers with their delivery counts, never a secret", async () => {
      const res = await admin("GET", "/admin/webhook-configs");
      expect(res.status, res.text).toBe(200);
      expect(res.text).not.toContain(SECRET);
      expect(res.text).not.toContain(PASSWORD);
      expect(res.json.webhook_configs).toEqual([
        expect.objectContaining({
          config_id: alphaConfig,
          partner_id: alpha.partnerId,
          url: `${receiver.url}/alpha`,
          events: ["*"],
          enabled: true,
          disabled_reason: null,
          has_secret: true,
          basic_auth: { username: "ops" },
          pending_deliveries: 0,
          dead_deliveries: 1,
        }),
        expect.objectContaining({
          config_id: betaConfig,
          partner_id: beta.partnerId,
          has_secret: false,
          basic_auth: null,
          dead_deliveries: 0,
        }),
      ]);
      const byPartner = await admin("GET", `/admin/webhook-configs?partner_id=${beta.partnerId}`);
      expect(byPartner.json.webhook_configs.map((c: Json) => c.config_id)).toEqual([betaConfig]);
      const disabled = await admin("GET", "/admin/webhook-configs?enabled=false");
      expect(disabled.json.webhook_configs).toEqual([]);
      const paged = await admin("GET", "/admin/webhook-configs?limit=1");
      const next = await admin("GET", `/admin/webhook-configs?limit=1&cursor=${paged.json.next_cursor}`);
      expect(
        [...paged.json.webhook_configs, ...next.json.webhook_configs].map((c: Json) => c.config_id),
      ).toEqual([alphaConfig, betaConfig]);
      expect(next.json.next_cursor).toBeNull();
      const bad = await admin("GET", "/admin/webhook-configs?enabled=maybe");
      expect([bad.status, bad.json.field]).toEqual([400, "enabled"]);
    });
  });

  describe("a dead delivery, its config disabled then enabled, redelivered", () => {
    it("a disabled config refuses redelivery and gets no new deliveries", async () => {
      const off = await admin("PATCH", `/admin/webhook-configs/${alphaConfig}`, {
        enabled: false,
        reason: "receiver down, partner informed",
      });
      expect(off.status, off.text).toBe(200);
      expect(off.json).toMatchObject({ enabled: false, disabled_reason: "receiver down, partner informed" });
      const partnerView = await platform.partner(alpha, "GET", "/webhookConfigs");
      expect(partnerView.json.webhook_configs[0]).toMatchObject({
        active: false,
        disabled_reason: "receiver down, partner informed",
      });
      // The operator's switch-off wins: the partner cannot switch it back on, nor erase the reason.
      const reenable = await platform.partner(alpha, "PATCH", `/webhookConfigs/${alphaConfig}`, {
        active: true,
      });
      expect([reenable.status, reenable.json.code], reenable.text).toEqual([
        409,
        "WEBHOOK_CONFIG_DISABLED_BY_OPERATOR",
      ]);
      expect(reenable.json.message).toContain("receiver down, partner informed");
      const offAgain = await platform.partner(alpha, "PATCH", `/webhookConfigs/${alphaConfig}`, {
        active: false,
      });
      expect(offAgain.status, offAgain.text).toBe(200);
      expect(offAgain.json).toMatchObject({
        active: false,
        disabled_reason: "receiver down, partner informed",
      });
      const stillOff = await platform.partner(alpha, "GET", "/webhookConfigs");
      expect(stillOff.json.webhook_configs[0]).toMatchObject({
        active: false,
        disabled_reason: "receiver down, partner informed",
      });

      const [dead] = await deliveriesOf("status=dead");
      const refused = await admin("POST", `/admin/webhook-deliveries/${dead.delivery_id}/redeliver`);
      expect([refused.status, refused.json.code]).toEqual([409, "WEBHOOK_CONFIG_INACTIVE"]);

      const whileOff = await settledPayout(alpha);
      await eventually("the event consumed", async () => {
        const seen = await platform.runtime.db.query(
          "SELECT 1 FROM webhooks.processed_events WHERE tx_id = $1 AND event_type = 'transaction.success'",
          [whileOff],
        );
        return seen.rowCount > 0 ? true : undefined;
      });
      expect(await deliveriesOf(`tx_id=${whileOff}`)).toEqual([]);
    });

    it("enabled again and redelivered to a healthy receiver, the dead delivery is delivered", async () => {
      healthy = true;
      const on = await admin("PATCH", `/admin/webhook-configs/${alphaConfig}`, { enabled: true });
      expect(on.status, on.text).toBe(200);
      expect(on.json).toMatchObject({ enabled: true, disabled_reason: null, dead_deliveries: 1 });
      // Enabled by the operator, the config is the partner's to switch again.
      const partnerOff = await platform.partner(alpha, "PATCH", `/webhookConfigs/${alphaConfig}`, {
        active: false,
      });
      expect([partnerOff.status, partnerOff.json.active]).toEqual([200, false]);
      const partnerOn = await platform.partner(alpha, "PATCH", `/webhookConfigs/${alphaConfig}`, {
        active: true,
      });
      expect([partnerOn.status, partnerOn.json.active]).toEqual([200, true]);

      const [dead] = await deliveriesOf("status=dead");
      const redelivered = await admin("POST", `/admin/webhook-deliveries/${dead.delivery_id}/redeliver`);
      expect(redelivered.status, redelivered.text).toBe(200);
      expect(redelivered.json).toMatchObject({ delivery_id: dead.delivery_id, status: "pending" });
      const done = await eventually("the redelivery", async () => {
        const [row] = await deliveriesOf(`tx_id=${alphaTx}`);
        return row?.status === "delivered" ? row : undefined;
      });
      expect(done.attempts.map((a: Json) => a.status_code)).toEqual([500, 500, 200]);
      expect(done.event_id).toBe(dead.event_id);
      const overview = await admin("GET", "/admin/overview");
      expect(overview.json.webhooks.dead).toBe(0);
    });

    it("refuses bad switches and unknown ids", async () => {
      const cases: [string, string, unknown, number, string, string?][] = [
        ["PATCH", `/admin/webhook-configs/${alphaConfig}`, {}, 400, "MISSING_REQUIRED_FIELD", "enabled"],
        [
          "PATCH",
          `/admin/webhook-configs/${alphaConfig}`,
          { enabled: "no" },
          400,
          "INVALID_FIELD",
          "enabled",
        ],
        [
          "PATCH",
          `/admin/webhook-configs/${alphaConfig}`,
          { enabled: false, reason: "x".repeat(501) },
          400,
          "INVALID_FIELD",
          "reason",
        ],
        ["PATCH", "/admin/webhook-configs/whc_unknown", { enabled: false }, 404, "WEBHOOK_CONFIG_NOT_FOUND"],
        ["POST", "/admin/webhook-deliveries/whd_unknown/redeliver", undefined, 404, "DELIVERY_NOT_FOUND"],
      ];
      for (const [method, path, body, status, code, field] of cases) {
        const res = await admin(method, path, body);
        expect([res.status, res.json.code, res.json.field], `${method} ${path}`).toEqual([
          status,
          code,
          field,
        ]);
      }
      const still = await admin("GET", "/admin/webhook-configs?enabled=true");
      expect(still.json.webhook_configs).toHaveLength(2);
    });
  });

  it("answers none of these routes without the admin token, or with a wrong one", async () => {
    const routes: [string, string][] = [
      ["GET", "/admin/webhook-deliveries"],
      ["POST", "/admin/webhook-deliveries/whd_x/redeliver"],
      ["GET", "/admin/webhook-configs"],
      ["PATCH", `/admin/webhook-configs/${alphaConfig}`],
    ];
    for (const [method, path] of routes) {
      for (const headers of [{}, { authorization: "Bearer wrong-token" }]) {
        const body = method === "PATCH" ? { enabled: false } : undefined;
        const res = await callJson(`${platform.adminUrl}${path}`, method, headers, body);
        expect([res.status, res.json.code], path).toEqual([401, "AUTHENTICATION_REQUIRED"]);
      }
    }
    const configs = await admin("GET", "/admin/webhook-configs?enabled=true");
    expect(configs.json.webhook_configs).toHaveLength(2);
  });
});

describe("a config disabled while a delivery is pending", () => {
  let platform: TestPlatform;
  let receiver: TestReceiver;
  let healthy = false;

  beforeAll(async () => {
    // The first attempt fails; the retry is due 1.5 s later, while the config is off.
    platform = await startTestPlatform({
      env: { WEBHOOK_RETRY_SCHEDULE_MS: "0,1500,100", QUOTE_TTL_MS: "600000" },
    });
    await setUpCorridor(platform);
    receiver = await startTestReceiver(() => (healthy ? { status: 200, body: "{}" } : { status: 503 }));
  });
  afterAll(async () => {
    await platform?.close();
    await receiver?.close();
  });

  it("keeps it pending, never attempted and never dead, and sends it once enabled again", async () => {
    const partner = await fundedPartner(platform, "100");
    const config = await platform.partner(partner, "POST", "/webhookConfigs", { url: `${receiver.url}/p` });
    const txId = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    expect((await executePayout(platform, partner, txId, `key-${txId}`)).status).toBe(200);
    await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, { outcome: "SUCCESS" });
    await receiver.waitFor(1);
    const off = await platform.admin("PATCH", `/admin/webhook-configs/${config.json.config_id}`, {
      enabled: false,
    });
    expect(off.status, off.text).toBe(200);

    const pendingRow = async () =>
      (await platform.admin("GET", `/admin/webhook-deliveries?tx_id=${txId}`)).json.deliveries[0];
    await eventually("the failed first attempt recorded", async () =>
      (await pendingRow())?.attempt_count === 1 && (await pendingRow()).status === "pending"
        ? true
        : undefined,
    );
    // Past the retry's due time, with the config off: still pending, one attempt, nothing sent.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await pendingRow()).toMatchObject({ status: "pending", attempt_count: 1 });
    expect(receiver.requests).toHaveLength(1);
    const overview = await platform.admin("GET", "/admin/overview");
    expect(overview.json.webhooks).toMatchObject({ pending: 1, retrying: 1, pending_disabled: 1, dead: 0 });
    expect(overview.json.webhooks.oldest_due_age_ms).toBe(0);

    healthy = true;
    const on = await platform.admin("PATCH", `/admin/webhook-configs/${config.json.config_id}`, {
      enabled: true,
    });
    expect(on.json).toMatchObject({ enabled: true, pending_deliveries: 1 });
    const delivered = await eventually("the waiting delivery sent", async () => {
      const row = await pendingRow();
      return row?.status === "delivered" ? row : undefined;
    });
    expect(delivered.attempts.map((a: Json) => a.status_code)).toEqual([503, 200]);
  });
});
