import { dropExpiredPreviousSecrets } from "@payouts/webhooks/internal/store/config-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ReceivedRequest,
  startTestReceiver,
  type TestReceiver,
  verifiesServiceSignature,
  verifiesStandardWebhookSignature,
} from "./support/test-receiver.js";
import { createConfig, newTxId, sleep } from "./support/webhook-fixtures.js";
import {
  type Partner,
  startWebhookHarness,
  transactionEvent,
  type WebhookHarness,
} from "./support/webhook-harness.js";

const whsec = (secret: string) => `whsec_${Buffer.from(secret).toString("base64")}`;

/**
 * Signing-secret rotation against a real receiver that verifies every signature over the
 * raw bytes: both secrets sign during the grace period, only the new one after it.
 */
describe("webhook secret rotation", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;
  let partner: Partner;

  beforeAll(async () => {
    harness = await startWebhookHarness();
    receiver = await startTestReceiver(() => ({ status: 200, body: "{}" }));
    partner = await harness.createPartner();
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  /** Publishes one event and returns the request the receiver got for it. */
  async function deliverOne(prefix: string): Promise<ReceivedRequest> {
    const event = transactionEvent({
      partnerId: partner.partnerId,
      txId: newTxId(),
      eventType: "transaction.success",
      sequence: 2,
    });
    await harness.publish(event);
    const [request] = await receiver.waitFor(
      1,
      (r) => r.path.startsWith(`${prefix}/`) && r.headers["x-service-event-id"] === event.eventId,
    );
    return request!;
  }

  it("signs with both secrets during the grace period and with the new one only after it", async () => {
    const first = "first-signing-secret-0123456789";
    const config = await createConfig(harness, partner, { url: `${receiver.url}/rot`, secret: first });
    const rotatePath = `/webhookConfigs/${config.config_id}/rotateSecret`;

    const before = await deliverOne("/rot");
    expect(verifiesServiceSignature(first, before)).toBe(true);
    expect(verifiesStandardWebhookSignature(whsec(first), before)).toBe(true);

    // A generated secret, answered this once.
    const rotated = await harness.api(partner, "POST", rotatePath);
    expect(rotated.status, rotated.text).toBe(200);
    const second: string = rotated.json.secret;
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.json).toMatchObject({ config_id: config.config_id, has_secret: true });
    const graceEnds = Date.parse(rotated.json.previous_secret_expires_at);
    expect(graceEnds - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(graceEnds - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

    const during = await deliverOne("/rot");
    // The single-valued X-SERVICE-Signature header: the current (new) secret.
    expect(verifiesServiceSignature(second, during)).toBe(true);
    expect(verifiesServiceSignature(first, during)).toBe(false);
    // Standard Webhooks: two entries, each verifies with its own secret.
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifiesStandardWebhookSignature(whsec(second), during)).toBe(true);
    expect(verifiesStandardWebhookSignature(whsec(first), during)).toBe(true);

    // Rotating again with a 1 s grace period: the first secret is dropped at once, the second one soon.
    const third = "third-signing-secret-0123456789";
    const again = await harness.api(partner, "POST", rotatePath, { secret: third, grace_period_seconds: 1 });
    expect(again.status, again.text).toBe(200);
    expect(again.json.secret).toBe(third);
    const shortGrace = await deliverOne("/rot");
    expect(verifiesStandardWebhookSignature(whsec(third), shortGrace)).toBe(true);
    expect(verifiesStandardWebhookSignature(whsec(second), shortGrace)).toBe(true);
    expect(verifiesStandardWebhookSignature(whsec(first), shortGrace)).toBe(false);

    await sleep(Math.max(0, Date.parse(again.json.previous_secret_expires_at) - Date.now()) + 100);
    const after = await deliverOne("/rot");
    expect(verifiesServiceSignature(third, after)).toBe(true);
    expect(verifiesStandardWebhookSignature(whsec(third), after)).toBe(true);
    expect(verifiesStandardWebhookSignature(whsec(second), after)).toBe(false);
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);

    // The periodic clean-up drops the expired secret from the row.
    expect(await dropExpiredPreviousSecrets(harness.db, new Date())).toBeGreaterThanOrEqual(1);
    const { rows } = await harness.db.query<{ previous_secret_sealed: string | null }>(
      "SELECT previous_secret_sealed FROM webhooks.configs WHERE config_id = $1",
      [config.config_id],
    );
    expect(rows[0]!.previous_secret_sealed).toBeNull();
    const listed = await harness.api(partner, "GET", "/webhookConfigs");
    const shown = listed.json.webhook_configs.find(
      (c: { config_id: string }) => c.config_id === config.config_id,
    );
    expect(shown).toMatchObject({ has_secret: true, previous_secret_expires_at: null });
  });

  it("keeps secrets sealed and never answers them again", async () => {
    const initial = "sealed-signing-secret-0123456789";
    const config = await createConfig(harness, partner, { url: `${receiver.url}/sealed`, secret: initial });
    const rotated = await harness.api(partner, "POST", `/webhookConfigs/${config.config_id}/rotateSecret`, {
      grace_period_seconds: 3600,
    });
    const generated: string = rotated.json.secret;
    const { rows } = await harness.db.query<{ secret_sealed: string; previous_secret_sealed: string }>(
      "SELECT secret_sealed, previous_secret_sealed FROM webhooks.configs WHERE config_id = $1",
      [config.config_id],
    );
    const stored = JSON.stringify(rows[0]);
    expect(rows[0]!.secret_sealed).toMatch(/^v1\./);
    expect(rows[0]!.previous_secret_sealed).toMatch(/^v1\./);
    expect(stored).not.toContain(initial);
    expect(stored).not.toContain(generated);
    const listed = await harness.api(partner, "GET", "/webhookConfigs");
    expect(listed.text).not.toContain(initial);
    expect(listed.text).not.toContain(generated);
    const patched = await harness.api(partner, "PATCH", `/webhookConfigs/${config.config_id}`, {
      active: true,
    });
    expect(patched.text).not.toContain(generated);
    expect(patched.json.previous_secret_expires_at).not.toBeNull();

    // Setting the secret directly replaces it at once: no grace period.
    const replaced = await harness.api(partner, "PATCH", `/webhookConfigs/${config.config_id}`, {
      secret: "replaced-signing-secret-012345",
    });
    expect(replaced.json).toMatchObject({ has_secret: true, previous_secret_expires_at: null });
  });

  it.each([
    [{ grace_period_seconds: 604_801 }, "grace_period_seconds"],
    [{ grace_period_seconds: -1 }, "grace_period_seconds"],
    [{ grace_period_seconds: "1h" }, "grace_period_seconds"],
    [{ secret: "too-short" }, "secret"],
  ])("refuses %j with 400 INVALID_FIELD", async (body, field) => {
    const config = await createConfig(harness, partner, {
      url: `${receiver.url}/bad`,
      secret: "valid-signing-secret-0123",
    });
    const res = await harness.api(partner, "POST", `/webhookConfigs/${config.config_id}/rotateSecret`, body);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code: "INVALID_FIELD", field });
  });

  it("answers another partner's config as not found", async () => {
    const config = await createConfig(harness, partner, {
      url: `${receiver.url}/mine`,
      secret: "mine-signing-secret-0123",
    });
    const stranger = await harness.createPartner();
    const res = await harness.api(stranger, "POST", `/webhookConfigs/${config.config_id}/rotateSecret`);
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("WEBHOOK_CONFIG_NOT_FOUND");
  });
});
