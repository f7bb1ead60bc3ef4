import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookHarness, type WebhookHarness } from "./support/webhook-harness.js";

/**
 * Adaptive per-receiver concurrency and the per-partner bound, end to end: the running dispatcher claims
 * rows stored in real PostgreSQL and sends them to real local HTTP receivers, which count the requests
 * they hold open at once.
 */

type Answer = { status: number; delayMs: number } | "never";

interface CountingReceiver {
  readonly url: string;
  /** Most requests open at once, since the last `resetPeak`. */
  peak: number;
  open: number;
  /** Arrival order of event ids. */
  readonly arrived: string[];
  /** Event ids whose answer was sent. */
  readonly answered: Set<string>;
  answer: Answer;
  resetPeak(): void;
  close(): Promise<void>;
}

async function startCountingReceiver(answer: Answer): Promise<CountingReceiver> {
  const hanging: ServerResponse[] = [];
  const receiver = {
    url: "",
    peak: 0,
    open: 0,
    arrived: [] as string[],
    answered: new Set<string>(),
    answer,
    resetPeak() {
      receiver.peak = receiver.open;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const eventId = String(req.headers["x-service-event-id"]);
      receiver.arrived.push(eventId);
      receiver.open += 1;
      receiver.peak = Math.max(receiver.peak, receiver.open);
      const current = receiver.answer;
      if (current === "never") {
        hanging.push(res);
        return;
      }
      setTimeout(() => {
        receiver.open -= 1;
        receiver.answered.add(eventId);
        res.writeHead(current.status, { "content-type": "application/json" });
        res.end("{}");
      }, current.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

async function insertConfig(db: Queryable, partnerId: string, url: string): Promise<string> {
  const configId = newId("whc");
  await db.query(
    `INSERT INTO webhooks.configs (config_id, partner_id, url, events) VALUES ($1, $2, $3, '{*}')`,
    [configId, partnerId, url],
  );
  return configId;
}

/**
 * `txs` transactions of two events each (sequence 1 then 2), due now. Event ids are `<prefix>_<tx>_<seq>`.
 */
async function insertDue(db: Queryable, partnerId: string, configId: string, txs: number): Promise<string> {
  const prefix = newId("evt");
  await db.query(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body,
       next_attempt_at)
     SELECT $1 || '_d_' || t || '_' || s, $1 || '_' || t || '_' || s, $2, $3, $1 || '_tx_' || t, s,
            'transaction.success', '\\x7b7d'::bytea, now() + (t * 2 + s) * interval '1 microsecond'
       FROM generate_series(1, $4::int) AS t, generate_series(1, 2) AS s`,
    [prefix, configId, partnerId, txs],
  );
  return prefix;
}

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The second event of each transaction arrived only after the first one's answer was sent. */
function expectOrdered(receiver: CountingReceiver, prefix: string, txs: number) {
  for (let t = 1; t <= txs; t++) {
    const first = receiver.arrived.indexOf(`${prefix}_${t}_1`);
    const second = receiver.arrived.indexOf(`${prefix}_${t}_2`);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first);
  }
}

describe("adaptive concurrency per receiver", () => {
  let harness: WebhookHarness;
  const receivers: CountingReceiver[] = [];

  beforeAll(async () => {
    harness = await startWebhookHarness({
      env: {
        WEBHOOK_RECEIVER_CONCURRENCY: "4",
        WEBHOOK_RECEIVER_MAX_CONCURRENCY: "10",
        WEBHOOK_RETRY_SCHEDULE_MS: "0,0,0,0,0,0,0,0",
      },
    });
  });
  afterAll(async () => {
    // Receivers first: the dispatcher's stop waits for the requests they hold.
    for (const receiver of receivers) await receiver.close();
    await harness?.close();
  });

  it("grows past the starting 4 for a receiver answering 2xx fast, never past the most, in per-transaction order", async () => {
    const receiver = await startCountingReceiver({ status: 200, delayMs: 15 });
    receivers.push(receiver);
    const partnerId = newId("ptr");
    const configId = await insertConfig(harness.db, partnerId, receiver.url);
    const txs = 400;
    const prefix = await insertDue(harness.db, partnerId, configId, txs);

    await waitUntil("every delivery is delivered", async () => {
      const { rows } = await harness.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM webhooks.deliveries WHERE config_id = $1 AND status = 'delivered'`,
        [configId],
      );
      return Number(rows[0]!.n) === txs * 2;
    });
    expect(receiver.peak).toBeGreaterThan(4);
    expect(receiver.peak).toBeLessThanOrEqual(10);
    expect(receiver.arrived).toHaveLength(txs * 2);
    expectOrdered(receiver, prefix, txs);
  }, 60_000);

  it("shrinks back to the starting 4 once the receiver answers 429 or 5xx", async () => {
    const receiver = await startCountingReceiver({ status: 200, delayMs: 15 });
    receivers.push(receiver);
    const partnerId = newId("ptr");
    const configId = await insertConfig(harness.db, partnerId, receiver.url);
    await insertDue(harness.db, partnerId, configId, 1_500);

    await waitUntil("the receiver holds more than 4 requests", () => receiver.peak > 4);
    // Overloaded from now on: it answers 429 (which never opens the circuit) after the same delay.
    receiver.answer = { status: 429, delayMs: 15 };
    await new Promise((r) => setTimeout(r, 400));
    receiver.resetPeak();
    const seen = receiver.arrived.length;
    await waitUntil("100 more requests arrived", () => receiver.arrived.length >= seen + 100);
    expect(receiver.peak).toBeLessThanOrEqual(4);
    await harness.db.query(`UPDATE webhooks.configs SET paused = true WHERE config_id = $1`, [configId]);
  }, 60_000);
});

describe("per-partner bound", () => {
  let harness: WebhookHarness;
  const receivers: CountingReceiver[] = [];

  beforeAll(async () => {
    harness = await startWebhookHarness({
      env: { WEBHOOK_RECEIVER_CONCURRENCY: "4", WEBHOOK_PARTNER_CONCURRENCY: "6" },
    });
  });
  afterAll(async () => {
    // Receivers first: the dispatcher's stop waits for the requests they hold.
    for (const receiver of receivers) await receiver.close();
    await harness?.close();
  });

  it("holds a partner's receivers that never answer to its bound, while another partner is delivered", async () => {
    const hanging = await startCountingReceiver("never");
    const healthy = await startCountingReceiver({ status: 200, delayMs: 5 });
    receivers.push(hanging, healthy);
    const stuck = newId("ptr");
    // Three receivers of 4 slots each would hold 12 requests; the partner's bound is 6.
    for (let i = 0; i < 3; i++) {
      await insertDue(harness.db, stuck, await insertConfig(harness.db, stuck, hanging.url), 20);
    }
    await waitUntil("the partner holds its bound", () => hanging.open >= 6);
    const other = newId("ptr");
    const otherConfig = await insertConfig(harness.db, other, healthy.url);
    await insertDue(harness.db, other, otherConfig, 20);
    await waitUntil("the other partner's 40 events arrived", () => healthy.answered.size === 40);
    expect(hanging.peak).toBe(6);
    const { rows } = await harness.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM webhooks.deliveries WHERE partner_id = $1 AND status = 'delivering'`,
      [stuck],
    );
    expect(Number(rows[0]!.n)).toBe(6);
  }, 60_000);
});
