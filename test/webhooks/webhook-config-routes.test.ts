import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  jsonOf,
  startTestReceiver,
  type TestReceiver,
  verifiesServiceSignature,
  verifiesStandardWebhookSignature,
} from "./support/test-receiver.js";
import { type Partner, startWebhookHarness, type WebhookHarness } from "./support/webhook-harness.js";

const SECRET = "whsec-test-0123456789abcdef";

describe("webhook configuration routes", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;
  let partner: Partner;
  let other: Partner;

  beforeAll(async () => {
    harness = await startWebhookHarness();
    receiver = await startTestReceiver();
    partner = await harness.createPartner();
    other = await harness.createPartner();
  });
  afterAll(async () => {
    await harness.close();
    await receiver.close();
  });

  const createConfig = (body: Record<string, unknown>, who: Partner = partner) =>
    harness.api(who, "POST", "/webhookConfigs", body);

  it("creates a configuration (201) and never answers its secret or password", async () => {
    const res = await createConfig({
      url: `${receiver.url}/hooks/`,
      events: ["transaction.refunded", "transaction.success", "transaction.success"],
      secret: SECRET,
      basic_auth: { username: "hooks", password: "basic-password-1" },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      url: `${receiver.url}/hooks`,
      events: ["transaction.success", "transaction.refunded"],
      active: true,
      has_secret: true,
      basic_auth: { username: "hooks" },
      disabled_reason: null,
    });
    expect(res.json.config_id).toMatch(/^whc_/);
    expect(res.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain("basic-password-1");
  });

  it("subscribes explicitly to every notified event type, in their canonical order", async () => {
    const res = await createConfig({
      url: `${receiver.url}/kinds`,
      events: ["batch.completed", "statement.closed", "transaction.failed", "transaction.success"],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.events).toEqual([
      "transaction.success",
      "transaction.failed",
      "statement.closed",
      "batch.completed",
    ]);
    const listed = await harness.api(partner, "GET", "/webhookConfigs");
    const row = listed.json.webhook_configs.find(
      (c: { config_id: string }) => c.config_id === res.json.config_id,
    );
    expect(row.events).toEqual(res.json.events);
  });

  it("stores secrets sealed, not in clear", async () => {
    const { rows } = await harness.db.query<{ secret_sealed: string; basic_auth_sealed: string }>(
      "SELECT secret_sealed, basic_auth_sealed FROM webhooks.configs WHERE secret_sealed IS NOT NULL",
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.secret_sealed).toMatch(/^v1\.[0-9a-f]{16}\./);
      expect(row.secret_sealed).not.toContain(SECRET);
      expect(Buffer.from(row.secret_sealed.split(".")[2]!, "base64url").toString("latin1")).not.toContain(
        SECRET,
      );
      expect(row.basic_auth_sealed).not.toContain("basic-password-1");
    }
  });

  it("defaults events to every notified kind and allows an inactive start", async () => {
    const res = await createConfig({ url: receiver.url, active: false });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ events: ["*"], active: false, has_secret: false, basic_auth: null });
  });

  it.each([
    [{}, "MISSING_REQUIRED_FIELD", "url"],
    [{ url: "ftp://example.com" }, "INVALID_FIELD", "url"],
    [{ url: "not a url" }, "INVALID_FIELD", "url"],
    [{ url: "https://user:pw@example.com" }, "INVALID_FIELD", "url"],
    [{ url: "https://example.com/hook?token=1" }, "INVALID_FIELD", "url"],
    [{ url: "https://example.com/webhooks/transactions/success" }, "INVALID_FIELD", "url"],
    [{ url: "https://example.com", events: [] }, "INVALID_FIELD", "events"],
    [{ url: "https://example.com", events: ["transaction.processing"] }, "INVALID_FIELD", "events"],
    [{ url: "https://example.com", events: "transaction.success" }, "INVALID_FIELD", "events"],
    [{ url: "https://example.com", secret: "too-short" }, "INVALID_FIELD", "secret"],
    [{ url: "https://example.com", secret: 1234567890123456 }, "INVALID_FIELD", "secret"],
    [{ url: "https://example.com", basic_auth: { username: "a" } }, "INVALID_FIELD", "basic_auth"],
    [
      { url: "https://example.com", basic_auth: { username: "a:b", password: "p" } },
      "INVALID_FIELD",
      "basic_auth",
    ],
    [
      { url: "https://example.com", basic_auth: { username: "a", password: "" } },
      "INVALID_FIELD",
      "basic_auth",
    ],
    [{ url: "https://example.com", active: "yes" }, "INVALID_FIELD", "active"],
  ])("refuses %j with 400 %s on %s", async (body, code, field) => {
    const res = await createConfig(body);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code, field });
  });

  it("needs partner credentials", async () => {
    expect((await harness.api(undefined, "GET", "/webhookConfigs")).status).toBe(401);
    expect((await harness.api(undefined, "POST", "/webhookConfigs", { url: receiver.url })).status).toBe(401);
  });

  it("lists only the caller's configurations; another partner's id is not found", async () => {
    const mine = await createConfig({ url: receiver.url });
    const theirs = await createConfig({ url: receiver.url }, other);
    const list = await harness.api(partner, "GET", "/webhookConfigs");
    expect(list.status).toBe(200);
    const ids = list.json.webhook_configs.map((c: { config_id: string }) => c.config_id);
    expect(ids).toContain(mine.json.config_id);
    expect(ids).not.toContain(theirs.json.config_id);

    const path = `/webhookConfigs/${theirs.json.config_id}`;
    for (const [method, suffix, body] of [
      ["PATCH", "", { active: false }],
      ["DELETE", "", undefined],
      ["POST", "/test", undefined],
    ] as const) {
      const res = await harness.api(partner, method, `${path}${suffix}`, body);
      expect(res.status, `${method} ${suffix}`).toBe(404);
      expect(res.json.code).toBe("WEBHOOK_CONFIG_NOT_FOUND");
    }
    const deliveries = await harness.api(
      partner,
      "GET",
      `/webhookDeliveries?config_id=${theirs.json.config_id}`,
    );
    expect(deliveries.json.deliveries).toEqual([]);
  });

  it("updates fields partially, clears secrets with null and validates like create", async () => {
    const created = await createConfig({
      url: receiver.url,
      secret: SECRET,
      basic_auth: { username: "u", password: "p" },
    });
    const path = `/webhookConfigs/${created.json.config_id}`;
    const events = await harness.api(partner, "PATCH", path, {
      events: ["transaction.failed"],
      active: false,
    });
    expect(events.status, events.text).toBe(200);
    expect(events.json).toMatchObject({ events: ["transaction.failed"], active: false, has_secret: true });
    expect(events.json.basic_auth).toEqual({ username: "u" });

    const cleared = await harness.api(partner, "PATCH", path, {
      secret: null,
      basic_auth: null,
      active: true,
    });
    expect(cleared.json).toMatchObject({ has_secret: false, basic_auth: null, active: true });
    expect(cleared.json.events).toEqual(["transaction.failed"]);

    const bad = await harness.api(partner, "PATCH", path, { url: "gopher://x" });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: "INVALID_FIELD", field: "url" });
    const unchanged = await harness.api(partner, "GET", "/webhookConfigs");
    const row = unchanged.json.webhook_configs.find(
      (c: { config_id: string }) => c.config_id === created.json.config_id,
    );
    expect(row.url).toBe(receiver.url);
  });

  it("deletes with 204, then the id is not found", async () => {
    const created = await createConfig({ url: receiver.url });
    const path = `/webhookConfigs/${created.json.config_id}`;
    expect((await harness.api(partner, "DELETE", path)).status).toBe(204);
    const again = await harness.api(partner, "DELETE", path);
    expect(again.status).toBe(404);
    expect(again.json.code).toBe("WEBHOOK_CONFIG_NOT_FOUND");
  });

  it("sends a signed test notification now and reports the receiver's status and timing, never its body", async () => {
    const created = await createConfig({ url: `${receiver.url}/test-target`, secret: SECRET });
    const res = await harness.api(partner, "POST", `/webhookConfigs/${created.json.config_id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      delivered: true,
      status_code: 200,
      error: null,
      latency_ms: expect.any(Number),
    });
    expect(res.json.latency_ms).toBeGreaterThanOrEqual(0);

    const [request] = await receiver.waitFor(1, (r) => r.path.startsWith("/test-target"));
    expect(request!.path).toBe("/test-target/webhooks/transactions/success");
    expect(verifiesServiceSignature(SECRET, request!)).toBe(true);
    const whsec = `whsec_${Buffer.from(SECRET).toString("base64")}`;
    expect(verifiesStandardWebhookSignature(whsec, request!)).toBe(true);
    expect(jsonOf(request!)).toMatchObject({
      status: "SUCCESS",
      event_type: "transaction.success",
      test: true,
    });
    expect(request!.rawBody.toString()).toMatch(/"fee":\d+\.\d\d,/);
  });

  it("reports a failing or unreachable receiver without recording a delivery", async () => {
    const failing = await startTestReceiver(() => ({ status: 503, body: "down for maintenance" }));
    const down = await startTestReceiver();
    await down.close();
    try {
      const a = await createConfig({ url: failing.url });
      const resA = await harness.api(partner, "POST", `/webhookConfigs/${a.json.config_id}/test`);
      expect(resA.json).toMatchObject({ delivered: false, status_code: 503 });
      // What the receiver answered is not echoed: a test cannot be used to read what an address serves.
      expect(resA.json).not.toHaveProperty("response_body");
      expect(resA.text).not.toContain("down for maintenance");

      const b = await createConfig({ url: down.url });
      const resB = await harness.api(partner, "POST", `/webhookConfigs/${b.json.config_id}/test`);
      expect(resB.json).toMatchObject({ delivered: false, status_code: null, error: "connection refused" });

      const log = await harness.api(partner, "GET", `/webhookDeliveries?config_id=${a.json.config_id}`);
      expect(log.json.deliveries).toEqual([]);
    } finally {
      await failing.close();
    }
  });

  it.each([
    ["status=bogus", "status"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=ten", "limit"],
  ])("refuses delivery filter %s with 400 INVALID_FIELD", async (query, field) => {
    const res = await harness.api(partner, "GET", `/webhookDeliveries?${query}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "INVALID_FIELD", field });
  });

  it("answers an unknown delivery id with 404 DELIVERY_NOT_FOUND", async () => {
    const res = await harness.api(partner, "POST", "/webhookDeliveries/whd_unknown/redeliver");
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("DELIVERY_NOT_FOUND");
  });
});
