import { newId } from "@payouts/platform/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
