import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { metrics } from "@opentelemetry/api";
import { AggregationTemporality, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import { DEFAULT_CIRCUIT_PROBE_INTERVAL_MS } from "@payouts/webhooks/internal/domain/circuit-breaker";
import { claimDueDeliveries } from "@payouts/webhooks/internal/store/delivery-queue-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "./support/test-receiver.js";
import { createConfig, newTxId, settledDeliveries, sleep } from "./support/webhook-fixtures.js";
import {
  eventually,
  type Partner,
  startWebhookHarness,
  transactionEvent,
  type WebhookHarness,
} from "./support/webhook-harness.js";

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

// Registered before the dispatcher builds its instruments.
const reader = new TestReader();
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

/** The circuit transition counter's points: attributes and value. */
async function circuitTransitions(): Promise<{ attributes: Record<string, unknown>; value: number }[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === "payouts.webhooks.circuit.transitions")
    .flatMap((metric) =>
      metric.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value as number })),
    );
}

/**
 * The per-receiver circuit breaker on the real dispatcher and PostgreSQL: a receiver that refuses
 * connections is cut off after WEBHOOK_CIRCUIT_FAILURE_THRESHOLD (default 5) failures in a row, its
 * backlog waits untried while another receiver is served, and one probe every probe interval (default
 * 2 s) finds it again when it answers.
 */
describe("receiver circuit breaker", () => {
  let harness: WebhookHarness;
  let healthy: TestReceiver;

  beforeAll(async () => {
    // Enough attempts that no row of the refusing receiver dies while the test watches it.
    harness = await startWebhookHarness({
      env: { WEBHOOK_RETRY_SCHEDULE_MS: Array.from({ length: 20 }, (_, i) => (i === 0 ? 0 : 200)).join(",") },
    });
    healthy = await startTestReceiver(() => ({ status: 200, body: "{}" }));
  });
  afterAll(async () => {
    await harness?.close();
    await healthy?.close();
  });

  describe("a receiver that refuses connections, then comes back", () => {
    const port = { value: 0 };
    let down: Partner;
    let downConfig: string;
    const txIds = [newTxId(), newTxId(), newTxId(), newTxId()];

    it("opens after the threshold (counted): its due rows are not attempted while another receiver's are delivered", async () => {
      port.value = await closedPort();
      down = await harness.createPartner();
      const up = await harness.createPartner();
      downConfig = (await createConfig(harness, down, { url: `http://127.0.0.1:${port.value}/hooks` }))
        .config_id;
      const upConfig = (await createConfig(harness, up, { url: `${healthy.url}/up` })).config_id;
      // Two events per transaction: the refund may only go after its success.
      await harness.publish(
        ...txIds.flatMap((txId) => [
          transactionEvent({
            partnerId: down.partnerId,
            txId,
            eventType: "transaction.success",
            sequence: 1,
          }),
          transactionEvent({
            partnerId: down.partnerId,
            txId,
            eventType: "transaction.refunded",
            sequence: 2,
          }),
        ]),
      );

      const opened = await eventually(async () => {
        const circuit = await circuitOf(harness.db, downConfig);
        return circuit.circuit_state === "open" ? circuit : undefined;
      }, 10_000);
      expect(opened.circuit_failures).toBeGreaterThanOrEqual(5);
      // Counted without naming the receiver: one series per transition, however many receivers.
      expect(await circuitTransitions()).toEqual([{ attributes: { transition: "opened" }, value: 1 }]);
      // Meanwhile another partner's receiver is served as usual.
      const upTxs = [newTxId(), newTxId(), newTxId()];
      await harness.publish(
        ...upTxs.map((txId) =>
          transactionEvent({ partnerId: up.partnerId, txId, eventType: "transaction.success", sequence: 1 }),
        ),
      );
      // Attempts sent before the circuit opened finish (a refusal is immediate) and are recorded.
      await eventually(async () =>
        (await work(harness.db, downConfig)).delivering === 0 ? true : undefined,
      );
      const before = await work(harness.db, downConfig);
      const retryAt = (await circuitOf(harness.db, downConfig)).circuit_retry_at!;

      // Until the circuit is due for a probe, nothing of its backlog is claimed: no attempt counted, no
      // attempt row, every row still pending (none dead), though rows come due every 200 ms.
      await sleep(Math.max(0, retryAt.getTime() - Date.now() - 200));
      const during = await work(harness.db, downConfig);
      expect(Date.now(), "the window before the first probe was observed").toBeLessThan(retryAt.getTime());
      expect(during).toEqual(before);
      expect(during.pending).toBe(8);
      // The other receiver got its notifications within that window.
      const upRows = await settledDeliveries(harness, up, `config_id=${upConfig}`, 3, "delivered", 5_000);
      for (const row of upRows) expect(new Date(row.delivered_at).getTime()).toBeLessThan(retryAt.getTime());
      await healthy.waitFor(3, (r) => r.path.startsWith("/up/"), 5_000);

      // Afterwards it is probed with one row at a time, about once per probe interval.
      await sleep(2 * DEFAULT_CIRCUIT_PROBE_INTERVAL_MS + 400);
      await eventually(async () =>
        (await work(harness.db, downConfig)).delivering === 0 ? true : undefined,
      );
      const probed = await work(harness.db, downConfig);
      expect(probed.attemptRows - before.attemptRows).toBeGreaterThanOrEqual(1);
      expect(probed.attemptRows - before.attemptRows).toBeLessThanOrEqual(3);
      expect(probed.attempts - before.attempts).toBe(probed.attemptRows - before.attemptRows);
      expect(probed.pending).toBe(8);
      expect((await circuitOf(harness.db, downConfig)).circuit_state).not.toBe("closed");
    });

    it("closes at the next probe once the receiver answers, drains the backlog in per-transaction order, counts the transitions", async () => {
      expect(downConfig).toBeDefined();
      const received: { txId: string; eventType: string }[] = [];
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
            tx_id: string;
            event_type: string;
          };
          received.push({ txId: body.tx_id, eventType: body.event_type });
          res.writeHead(200, { "content-type": "application/json" }).end("{}");
        });
      });
      await listen(server, port.value);
      try {
        const back = Date.now();
        await eventually(async () =>
          (await circuitOf(harness.db, downConfig)).circuit_state === "closed" ? true : undefined,
        );
        // The next probe is at most one probe interval away; it and the claim poll take a fraction more.
        expect(Date.now() - back).toBeLessThan(DEFAULT_CIRCUIT_PROBE_INTERVAL_MS + 1_000);
        const rows = await settledDeliveries(
          harness,
          down,
          `config_id=${downConfig}`,
          8,
          "delivered",
          5_000 - (Date.now() - back),
        );
        expect(rows).toHaveLength(8);
        expect(await circuitOf(harness.db, downConfig)).toEqual({
          circuit_state: "closed",
          circuit_failures: 0,
          circuit_opened_at: null,
          circuit_retry_at: null,
        });
        expect(received).toHaveLength(8);
        expect(await circuitTransitions()).toEqual([
          { attributes: { transition: "opened" }, value: 1 },
          { attributes: { transition: "closed" }, value: 1 },
        ]);
        for (const txId of txIds) {
          expect(received.filter((r) => r.txId === txId).map((r) => r.eventType)).toEqual([
            "transaction.success",
            "transaction.refunded",
          ]);
        }
      } finally {
        await new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        });
      }
    });
  });

  it("claims nothing of a paused receiver", async () => {
    const partner = await harness.createPartner();
    const config = (await createConfig(harness, partner, { url: `${healthy.url}/paused` })).config_id;
    await harness.db.query("UPDATE webhooks.configs SET paused = true WHERE config_id = $1", [config]);
    const txId = newTxId();
    await harness.publish(
      transactionEvent({ partnerId: partner.partnerId, txId, eventType: "transaction.success", sequence: 1 }),
    );
    await eventually(async () => ((await work(harness.db, config)).pending === 1 ? true : undefined));
    // The dispatcher polls every 50 ms: two seconds of chances to claim it.
    await sleep(2_000);
    expect(await work(harness.db, config)).toEqual({
      pending: 1,
      delivering: 0,
      attempts: 0,
      attemptRows: 0,
    });
    expect(healthy.requests.filter((r) => r.path.startsWith("/paused/"))).toEqual([]);
    // Nor does a direct claim take it.
    const claimed = await claimDueDeliveries(harness.db, claimOptions());
    expect(claimed.filter((c) => c.config_id === config)).toEqual([]);

    await harness.db.query("UPDATE webhooks.configs SET paused = false WHERE config_id = $1", [config]);
    await settledDeliveries(harness, partner, `tx_id=${txId}`, 1, "delivered", 5_000);
  });

  it("counts a test notification's answer: it waits for the probe while open, and a 2xx closes the circuit", async () => {
    const partner = await harness.createPartner();
    const config = (await createConfig(harness, partner, { url: `${healthy.url}/tested` })).config_id;
    await setCircuit(harness.db, config, "open", "now() + interval '1 minute'");
    const refused = await harness.api(partner, "POST", `/webhookConfigs/${config}/test`);
    expect(refused.status, refused.text).toBe(200);
    expect(refused.json).toMatchObject({ delivered: false });
    expect(refused.json.error).toMatch(/circuit is open/);
    expect(healthy.requests.filter((r) => r.path.startsWith("/tested/"))).toEqual([]);

    // Due for a probe: the test notification is it, and its 2xx closes the circuit.
    await setCircuit(harness.db, config, "open", "now() - interval '1 millisecond'");
    const sent = await harness.api(partner, "POST", `/webhookConfigs/${config}/test`);
    expect(sent.json).toMatchObject({ delivered: true, status_code: 200 });
    expect((await circuitOf(harness.db, config)).circuit_state).toBe("closed");
  });

  describe("probes (the dispatcher stopped, the claim called directly)", () => {
    beforeAll(async () => {
      await harness.dispatcher.stop();
    });
    afterAll(async () => {
      await harness.restartDispatcher();
    });

    it("takes one row of an open circuit due for a probe and makes it half-open for the probe's lease", async () => {
      const { partner, config } = await receiverWithBacklog(3);
      await setCircuit(harness.db, config, "open", "now() + interval '1 minute'");
      expect(mine(await claimDueDeliveries(harness.db, claimOptions()), config)).toEqual([]);

      await setCircuit(harness.db, config, "open", "now() - interval '1 millisecond'");
      const now = new Date();
      const probe = mine(await claimDueDeliveries(harness.db, claimOptions({ now })), config);
      expect(probe).toHaveLength(1);
      expect(probe[0]!.partner_id).toBe(partner.partnerId);
      const circuit = await circuitOf(harness.db, config);
      expect(circuit.circuit_state).toBe("half_open");
      expect(circuit.circuit_retry_at!.getTime()).toBe(now.getTime() + 12_000);
      // While the probe is out, nothing else of that receiver goes.
      expect(mine(await claimDueDeliveries(harness.db, claimOptions()), config)).toEqual([]);
    });

    it("probes again when a half-open probe's worker died (its lease ran out)", async () => {
      const { config } = await receiverWithBacklog(2);
      // The probe's claim: a worker that died holding it, its lease run out.
      const deadWorker = newId("whw");
      await harness.db.query(
        `UPDATE webhooks.deliveries SET status = 'delivering', attempts = 1, claimed_by = $2,
                lease_expires_at = now() - interval '1 second'
          WHERE delivery_id = (SELECT delivery_id FROM webhooks.deliveries WHERE config_id = $1 LIMIT 1)`,
        [config, deadWorker],
      );
      await setCircuit(harness.db, config, "half_open", "now() + interval '1 minute'");
      expect(mine(await claimDueDeliveries(harness.db, claimOptions()), config)).toEqual([]);

      await setCircuit(harness.db, config, "half_open", "now() - interval '1 millisecond'");
      const probe = mine(await claimDueDeliveries(harness.db, claimOptions()), config);
      expect(probe).toHaveLength(1);
      expect((await circuitOf(harness.db, config)).circuit_state).toBe("half_open");
      expect((await circuitOf(harness.db, config)).circuit_retry_at!.getTime()).toBeGreaterThan(Date.now());
    });

    it("lets a half-open receiver whose probe died be found again by a running dispatcher", async () => {
      const { partner, config } = await receiverWithBacklog(3);
      await setCircuit(harness.db, config, "half_open", "now() - interval '1 millisecond'");
      await harness.restartDispatcher();
      try {
        await settledDeliveries(harness, partner, `config_id=${config}`, 3, "delivered", 5_000);
        expect((await circuitOf(harness.db, config)).circuit_state).toBe("closed");
      } finally {
        await harness.dispatcher.stop();
      }
    });
  });

  async function receiverWithBacklog(rows: number): Promise<{ partner: Partner; config: string }> {
    const partner = await harness.createPartner();
    const config = (await createConfig(harness, partner, { url: `${healthy.url}/probe` }))
      .config_id as string;
    for (let i = 0; i < rows; i++) {
      await harness.db.query(
        `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
           body, status, attempts, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, 1, 'transaction.success', $6, 'pending', 0, now() - interval '1 second')`,
        [newId("whd"), newId("evt"), config, partner.partnerId, newTxId(), Buffer.from("{}")],
      );
    }
    return { partner, config };
  }
});

function claimOptions(overrides: { now?: Date } = {}) {
  return {
    now: overrides.now ?? new Date(),
    leaseMs: 12_000,
    workerId: "whw_circuit_test",
    limit: 64,
    perConfigLimit: 4,
  };
}

function mine<T extends { config_id: string }>(claimed: T[], config: string): T[] {
  return claimed.filter((c) => c.config_id === config);
}

async function setCircuit(db: Queryable, config: string, state: "open" | "half_open", retryAtSql: string) {
  await db.query(
    `UPDATE webhooks.configs SET circuit_state = $2, circuit_failures = 5, circuit_opened_at = now(),
            circuit_retry_at = ${retryAtSql} WHERE config_id = $1`,
    [config, state],
  );
}

async function circuitOf(db: Queryable, config: string) {
  const res = await db.query<{
    circuit_state: string;
    circuit_failures: number;
    circuit_opened_at: Date | null;
    circuit_retry_at: Date | null;
  }>(
    "SELECT circuit_state, circuit_failures, circuit_opened_at, circuit_retry_at FROM webhooks.configs WHERE config_id = $1",
    [config],
  );
  return res.rows[0]!;
}

/** What a receiver's rows have cost so far. */
async function work(db: Queryable, config: string) {
  const res = await db.query<{ pending: number; delivering: number; attempts: number; attempt_rows: number }>(
    `SELECT count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
            count(*) FILTER (WHERE d.status = 'delivering')::int AS delivering,
            coalesce(sum(d.attempts), 0)::int AS attempts,
            (SELECT count(*) FROM webhooks.delivery_attempts a JOIN webhooks.deliveries x USING (delivery_id)
              WHERE x.config_id = $1)::int AS attempt_rows
       FROM webhooks.deliveries d WHERE d.config_id = $1`,
    [config],
  );
  const row = res.rows[0]!;
  return {
    pending: row.pending,
    delivering: row.delivering,
    attempts: row.attempts,
    attemptRows: row.attempt_rows,
  };
}

/** A local port nothing listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await listen(server, 0);
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
}
