import { newId } from "@payouts/platform/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { startTestReceiver, type TestReceiver } from "./support/test-receiver.js";
import { createConfig, newTxId, settledDeliveries, sleep } from "./support/webhook-fixtures.js";
import {
  type Partner,
  startWebhookHarness,
  transactionEvent,
  type WebhookHarness,
} from "./support/webhook-harness.js";

/**
 * The distributed default: WEBHOOK_ALLOW_PRIVATE_URLS unset means false. URLs are checked when saved, and
 * the resolved address is checked again at delivery time, so a host that later resolves to an internal
 * address (or a row saved while private URLs were allowed) is still refused.
 */
describe("SSRF guard with private receivers not allowed", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;
  let partner: Partner;

  beforeAll(async () => {
    harness = await startWebhookHarness({
      kafka: true,
      mode: "distributed",
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: "" },
    });
    receiver = await startTestReceiver();
    partner = await harness.createPartner();
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it.each([
    "http://example.com",
    "https://127.0.0.1",
    "https://[::1]:8443",
    "https://localhost",
    "https://hooks.localhost",
    "https://10.1.2.3",
    "https://169.254.169.254",
    "https://[::ffff:192.168.0.1]",
    "https://0x7f.1",
  ])("refuses to save %s", async (url) => {
    const res = await harness.api(partner, "POST", "/webhookConfigs", { url });
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code: "INVALID_FIELD", field: "url" });
  });

  it("accepts a public https URL (resolved only at delivery time)", async () => {
    const config = await createConfig(harness, partner, { url: "https://hooks.example.com/payouts" });
    expect(config.url).toBe("https://hooks.example.com/payouts");
    await harness.api(partner, "DELETE", `/webhookConfigs/${config.config_id}`);
  });

  it("refuses at delivery time a receiver whose address is loopback, literal or resolved", async () => {
    const port = new URL(receiver.url).port;
    const literal = await insertConfig(harness, partner, `http://127.0.0.1:${port}`);
    const resolved = await insertConfig(harness, partner, `http://localhost:${port}`);
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: partner.partnerId, txId, eventType: "transaction.success", sequence: 2 }),
    );

    const rows = await settledDeliveries(harness, partner, `tx_id=${txId}`, 2, "dead");
    const byConfig = new Map(rows.map((row) => [row.config_id, row]));
    expect(byConfig.get(literal)!.last_error).toBe(
      "refused: 127.0.0.1 is a loopback, private, link-local or otherwise non-public address",
    );
    expect(byConfig.get(resolved)!.last_error).toMatch(
      /^refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback, private, link-local or otherwise non-public address$/,
    );
    for (const row of rows) {
      expect(row.attempts).toBe(3);
      expect(row.history.every((a: { status_code: number | null }) => a.status_code === null)).toBe(true);
    }
    await sleep(100);
    expect(receiver.requests).toEqual([]);

    const test = await harness.api(partner, "POST", `/webhookConfigs/${resolved}/test`);
    expect(test.json).toMatchObject({ delivered: false, status_code: null });
    expect(test.json.error).toMatch(/^refused: localhost resolves to/);
    expect(receiver.requests).toEqual([]);
  });
});

/** A configuration saved behind the API's back, as if private URLs had been allowed when it was created. */
async function insertConfig(harness: WebhookHarness, partner: Partner, url: string): Promise<string> {
  const configId = newId("whc");
  await harness.db.query(
    `INSERT INTO webhooks.configs (config_id, partner_id, url, events) VALUES ($1, $2, $3, '{*}')`,
    [configId, partner.partnerId, url],
  );
  return configId;
}

/**
 * `npm start` (the embedded sandbox) allows private receivers only while its listeners are loopback-only:
 * with HOST=0.0.0.0 anyone who reaches the partner listener could otherwise point a receiver at this
 * host's own ports and probe them through the test endpoint.
 */
describe("the embedded sandbox's default for private receivers", () => {
  const loopbackReceiver = "http://127.0.0.1:5432/";

  async function withPlatform(env: Record<string, string>, run: (platform: TestPlatform) => Promise<void>) {
    // WEBHOOK_ALLOW_PRIVATE_URLS "" = unset: the default applies.
    const platform = await startTestPlatform({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "", ...env } });
    try {
      await run(platform);
    } finally {
      await platform.close();
    }
  }

  it("refuses a private receiver when the listeners are reachable from other machines (HOST=0.0.0.0)", async () => {
    await withPlatform({ HOST: "0.0.0.0" }, async (platform) => {
      const partner = await platform.createPartner();
      const res = await platform.partner(partner, "POST", "/webhookConfigs", { url: loopbackReceiver });
      expect(res.status, res.text).toBe(400);
      expect(res.json).toMatchObject({ code: "INVALID_FIELD", field: "url" });
    });
  });

  it("allows it when set explicitly, and on loopback-only listeners", async () => {
    await withPlatform({ HOST: "0.0.0.0", WEBHOOK_ALLOW_PRIVATE_URLS: "true" }, async (platform) => {
      const partner = await platform.createPartner();
      const res = await platform.partner(partner, "POST", "/webhookConfigs", { url: loopbackReceiver });
      expect(res.status, res.text).toBe(201);
    });
    await withPlatform({ HOST: "127.0.0.1" }, async (platform) => {
      const partner = await platform.createPartner();
      const res = await platform.partner(partner, "POST", "/webhookConfigs", { url: loopbackReceiver });
      expect(res.status, res.text).toBe(201);
    });
  });
});
