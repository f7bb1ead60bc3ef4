/**
 * statement.closed end to end on real PostgreSQL and real Kafka: two ledger closers race to close a
 * partner's day; the day's one outbox event is published, the webhooks service stores one delivery per
 * configuration whose filter wants it (`*` included) and a real receiver gets it signed, with the day's
 * summary as the statement API serves it.
 */
import { randomBytes } from "node:crypto";
import { verifyWebhook } from "@payouts/client";
import { closeNextDay } from "@payouts/ledger/internal/operations/daily-statements";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundedPartner, type Partner } from "../ledger/support/payout-fixtures.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  jsonOf,
  startTestReceiver,
  type TestReceiver,
  verifiesServiceSignature,
  verifiesStandardWebhookSignature,
} from "./support/test-receiver.js";

const SECRET = "statement-closed-secret-0123456789";
const DAY_MS = 86_400_000;
const GRACE_MS = 600_000;

describe("statement.closed notifications", () => {
  let platform: TestPlatform;
  let receiver: TestReceiver;
  let partner: Partner;
  /** The UTC day of the partner's credit: the day the closers close. */
  let today: string;

  beforeAll(async () => {
    platform = await startTestPlatform({
      kafka: true,
      env: {
        // Other test platforms share the topic: a group of our own sees every event.
        WEBHOOK_CONSUMER_GROUP: `webhook-stmt-${randomBytes(4).toString("hex")}`,
        WEBHOOK_RETRY_SCHEDULE_MS: "0,200,200",
      },
    });
    receiver = await startTestReceiver();
    partner = await fundedPartner(platform, "100");
  });
  afterAll(async () => {
    await platform?.close();
    await receiver?.close();
  });

  it("delivers one signed statement.closed with the day's summary when two closers close the day", async () => {
    for (const [name, events] of [
      ["only", ["statement.closed"]],
      ["all", ["*"]],
      ["payouts", ["transaction.success"]],
    ] as const) {
      const config = await platform.partner(partner, "POST", "/webhookConfigs", {
        url: `${receiver.url}/${name}`,
        secret: SECRET,
        events,
      });
      expect(config.status, config.text).toBe(201);
    }
    // The day's credit is visible to a closer once the feed's watermark has passed it.
    await expect
      .poll(async () => (await platform.partner(partner, "GET", "/balance/entries")).json.entries.length, {
        timeout: 15_000,
      })
      .toBe(1);
    const credit = (await platform.partner(partner, "GET", "/balance/entries")).json.entries[0];
    today = String(credit.created_at).slice(0, 10);
    expect((await platform.partner(partner, "GET", `/statements/daily/${today}`)).json.line_count).toBe(1);

    // Two ledger replicas close the day at once, as they would just after its grace period: late enough
    // for the credit's day, too early for the day after it, whatever the hour the test runs.
    const later = new Date(Date.parse(`${today}T00:00:00Z`) + DAY_MS + GRACE_MS + 60_000);
    const dbs = [0, 1].map(() =>
      createPgDatabase({ connectionString: platform.databaseUrl, maxConnections: 2 }),
    );
    try {
      const closed = await Promise.all(dbs.map((db) => closeNextDay(db, partner.partnerId, later, GRACE_MS)));
      expect(closed.filter((day) => day !== undefined).map((day) => day?.date)).toEqual([today]);
      expect(await closeNextDay(dbs[0]!, partner.partnerId, later, GRACE_MS)).toBeUndefined();
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
    const statement = (await platform.partner(partner, "GET", `/statements/daily/${today}`)).json;
    expect(statement.status).toBe("closed");

    const received = await receiver.waitFor(2, () => true, 30_000);
    // Long enough for a duplicate event or a delivery to the transaction-only configuration to arrive.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(receiver.requests.map((r) => r.path).sort()).toEqual([
      "/all/webhooks/statements/closed",
      "/only/webhooks/statements/closed",
    ]);
    const eventIds = new Set<unknown>();
    for (const request of received) {
      expect(verifiesServiceSignature(SECRET, request)).toBe(true);
      expect(
        verifiesStandardWebhookSignature(`whsec_${Buffer.from(SECRET).toString("base64")}`, request),
      ).toBe(true);
      expect(request.headers["x-service-event-id"]).toBe(jsonOf(request).event_id);
      eventIds.add(jsonOf(request).event_id);
      expect(jsonOf(request)).toEqual({
        statement_id: statement.statement_id,
        partner_id: partner.partnerId,
        date: today,
        time_zone: "UTC",
        period_start: `${today}T00:00:00.000Z`,
        period_end: new Date(Date.parse(`${today}T00:00:00Z`) + DAY_MS).toISOString(),
        revision: 1,
        currency: "USD",
        opening_balance_usd: "0",
        closing_balance_usd: "100",
        line_count: 1,
        total_debits_usd: "0",
        total_credits_usd: "100",
        sha256: statement.sha256,
        event_id: expect.stringMatching(/^evt_/),
        event_type: "statement.closed",
        occurred_at: later.toISOString(),
      });
    }
    // One event, delivered to each configuration that wants it.
    expect(eventIds.size).toBe(1);
    // The SDK verifies it and types it as a statement.closed notification.
    const verified = await verifyWebhook(received[0]!.rawBody, received[0]!.headers, SECRET);
    expect(verified.event.event_type).toBe("statement.closed");
    if (verified.event.event_type === "statement.closed") {
      expect(verified.event.sha256).toBe(statement.sha256);
    }
  });
});
