import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database, Queryable } from "@payouts/platform/database/database";
import { DatabaseUnavailableError } from "@payouts/platform/database/database-unavailable";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { newId } from "@payouts/platform/ids";
import { createLogger } from "@payouts/platform/logging/logger";
import type { ServiceModule } from "@payouts/platform/service-module";
import { claimDueDeliveries } from "@payouts/webhooks/internal/store/delivery-queue-store";
import { createWebhooksService } from "@payouts/webhooks/webhooks-service";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "./support/test-receiver.js";
import { createConfig, newTxId, settledDeliveries, sleep } from "./support/webhook-fixtures.js";
import {
  eventually,
  type Partner,
  startWebhookHarness,
  type WebhookHarness,
} from "./support/webhook-harness.js";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CHILD = join(REPO_ROOT, "test", "webhooks", "support", "webhooks-process.ts");

/**
 * Recovery of abandoned claims: a claim whose attempt could not be recorded, whose worker
 * died, or whose lease ran out never holds a receiver's slots for long.
 */
describe("abandoned claims", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;
  const extra: ServiceModule[] = [];

  beforeAll(async () => {
    harness = await startWebhookHarness();
    receiver = await startTestReceiver(() => ({ status: 200, body: "{}" }));
  });
  afterEach(async () => {
    for (const module of extra.splice(0)) await module.stop();
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it("does not count stale claims (lease run out) against the receiver's cap of 4", async () => {
    await harness.dispatcher.stop();
    try {
      const partner = await harness.createPartner();
      const config = await createConfig(harness, partner, { url: `${receiver.url}/stale` });
      for (let i = 0; i < 4; i++) {
        await insertDelivery(harness.db, partner, config.config_id, {
          status: "delivering",
          leaseSql: "now() - interval '1 second'",
        });
      }
      const due = await insertDelivery(harness.db, partner, config.config_id, { status: "pending" });

      const claimed = await claimDueDeliveries(harness.db, {
        now: new Date(),
        leaseMs: 12_000,
        workerId: "whw_test",
        limit: 16,
        perConfigLimit: 4,
      });
      expect(claimed.map((c) => c.delivery_id)).toEqual([due]);
    } finally {
      await harness.restartDispatcher();
    }
  });

  it("does not count the claiming worker's answered claims against the receiver's cap; others count them", async () => {
    await harness.dispatcher.stop();
    try {
      const partner = await harness.createPartner();
      const config = await createConfig(harness, partner, { url: `${receiver.url}/answered` });
      const live = [];
      for (let i = 0; i < 4; i++) {
        live.push(
          await insertDelivery(harness.db, partner, config.config_id, {
            status: "delivering",
            leaseSql: "now() + interval '1 minute'",
          }),
        );
      }
      const due = await insertDelivery(harness.db, partner, config.config_id, { status: "pending" });
      // Rows other tests left due may be claimed too: only this receiver's count here.
      const claim = async (answered: string[]) =>
        (
          await claimDueDeliveries(harness.db, {
            now: new Date(),
            leaseMs: 12_000,
            workerId: "whw_test",
            limit: 16,
            perConfigLimit: 4,
            answered,
          })
        ).filter((c) => c.config_id === config.config_id);
      // Another worker (or this one before the answers came) sees 4 requests at the receiver: none free.
      expect(await claim([])).toEqual([]);
      // Only three of the four answered: still one request at the receiver, so 3 slots of 4 free.
      expect((await claim(live.slice(0, 3))).map((c) => c.delivery_id)).toEqual([due]);
    } finally {
      await harness.restartDispatcher();
    }
  });

  it("retries the claim of a worker that stopped renewing its liveness long before the claim's lease", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/dead-worker` });
    const deadWorker = newId("whw");
    await harness.db.query(
      "INSERT INTO webhooks.workers (worker_id, alive_until) VALUES ($1, now() - interval '1 second')",
      [deadWorker],
    );
    // The claim's lease ends no earlier than this (read before the dispatcher can take the row over).
    const leaseAtLeast = Date.now() + 60_000;
    // What a worker writes when it claims, with a lease as long as the old 60 s one.
    const deliveryId = await insertDelivery(harness.db, partner, config.config_id, {
      status: "delivering",
      leaseSql: "now() + interval '60 seconds'",
      claimedBy: deadWorker,
    });

    const [row] = await settledDeliveries(
      harness,
      partner,
      `config_id=${config.config_id}`,
      1,
      "delivered",
      10_000,
    );
    expect(row).toMatchObject({ delivery_id: deliveryId, attempts: 2, last_status_code: 200 });
    expect(new Date(row.delivered_at).getTime()).toBeLessThan(leaseAtLeast - 45_000);
  });

  it("leaves the claim of a live worker alone", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/live-worker` });
    const liveWorker = newId("whw");
    await harness.db.query(
      "INSERT INTO webhooks.workers (worker_id, alive_until) VALUES ($1, now() + interval '1 hour')",
      [liveWorker],
    );
    const deliveryId = await insertDelivery(harness.db, partner, config.config_id, {
      status: "delivering",
      leaseSql: "now() + interval '60 seconds'",
      claimedBy: liveWorker,
    });
    await new Promise((r) => setTimeout(r, 500));
    const { rows } = await harness.db.query<{ status: string; claimed_by: string }>(
      "SELECT status, claimed_by FROM webhooks.deliveries WHERE delivery_id = $1",
      [deliveryId],
    );
    expect(rows[0]).toEqual({ status: "delivering", claimed_by: liveWorker });
    expect(receiver.requests.filter((r) => r.path.startsWith("/live-worker/"))).toEqual([]);
  });

  it("releases a claim at once when its attempt cannot be recorded, instead of waiting for the lease", async () => {
    await harness.dispatcher.stop();
    try {
      const partner = await harness.createPartner();
      const config = await createConfig(harness, partner, { url: `${receiver.url}/unrecorded` });
      // A 58 s attempt timeout: the lease is 60 s, so only the release can bring the row back in time.
      const faulty = createWebhooksService({
        db: failingFirstAttemptRecord(harness.db),
        bus: createInProcessEventBus(),
        logger: createLogger({ service: "webhook-tests", level: "silent" }),
        transports: {},
        env: { ...harness.env, WEBHOOK_TIMEOUT_MS: "58000" },
        mode: "distributed",
      });
      extra.push(faulty);
      await faulty.start();
      const deliveryId = await insertDelivery(harness.db, partner, config.config_id, { status: "pending" });

      const [row] = await settledDeliveries(
        harness,
        partner,
        `config_id=${config.config_id}`,
        1,
        "delivered",
        8_000,
      );
      expect(row).toMatchObject({ delivery_id: deliveryId, attempts: 2 });
      // Attempt 1 reached the receiver but its record was lost; attempt 2 is the one recorded.
      expect(row.history.map((a: { attempt: number }) => a.attempt)).toEqual([2]);
      const got = receiver.requests.filter((r) => r.path.startsWith("/unrecorded/"));
      expect(got.map((r) => r.headers["x-service-attempt"])).toEqual(["1", "2"]);
    } finally {
      await harness.restartDispatcher();
    }
  });

  it("aborts its attempts and claims nothing while it cannot renew its liveness", async () => {
    const partner = await harness.createPartner();
    const hanging = await startTestReceiver((_request, index) =>
      index === 0 ? { status: 200, body: "{}", delayMs: 60_000 } : { status: 200, body: "{}" },
    );
    const renewals = { cut: false };
    await harness.dispatcher.stop();
    try {
      const config = await createConfig(harness, partner, { url: `${hanging.url}/cut-off` });
      const cutOff = createWebhooksService({
        db: failingRenewals(harness.db, renewals),
        bus: createInProcessEventBus(),
        logger: createLogger({ service: "webhook-tests", level: "silent" }),
        transports: {},
        // A 30 s attempt timeout: only the lapsed liveness can stop the hanging attempt in time.
        env: { ...harness.env, WEBHOOK_WORKER_TTL_MS: "2000", WEBHOOK_TIMEOUT_MS: "30000" },
        mode: "distributed",
      });
      extra.push(cutOff);
      await cutOff.start();
      const deliveryId = await insertDelivery(harness.db, partner, config.config_id, { status: "pending" });
      await hanging.waitFor(1);
      renewals.cut = true;

      const [attempt] = await eventually(async () => {
        const { rows } = await harness.db.query<{ attempt: number; error: string | null }>(
          "SELECT attempt, error FROM webhooks.delivery_attempts WHERE delivery_id = $1",
          [deliveryId],
        );
        return rows.length > 0 ? rows : undefined;
      }, 5_000);
      expect(attempt).toEqual({
        attempt: 1,
        error: "attempt abandoned: this dispatcher could not renew its liveness in time",
      });
      // Due again at once (schedule 0, 200, 200 ms), yet not claimed while the liveness cannot be renewed.
      await sleep(1_000);
      expect(hanging.requests).toHaveLength(1);

      renewals.cut = false;
      const [row] = await settledDeliveries(
        harness,
        partner,
        `config_id=${config.config_id}`,
        1,
        "delivered",
        10_000,
      );
      expect(row).toMatchObject({ delivery_id: deliveryId, attempts: 2, last_status_code: 200 });
    } finally {
      await hanging.close();
      await harness.restartDispatcher();
    }
  });

  it("sends a delivery again within seconds after its dispatcher is killed mid-attempt and restarted", async () => {
    const partner = await harness.createPartner();
    const hanging = await startTestReceiver((_request, index) =>
      index === 0 ? { status: 200, body: "{}", delayMs: 60_000 } : { status: 200, body: "{}" },
    );
    let child: ChildProcess | undefined;
    await harness.dispatcher.stop();
    try {
      const config = await createConfig(harness, partner, { url: `${hanging.url}/killed` });
      const deliveryId = await insertDelivery(harness.db, partner, config.config_id, { status: "pending" });
      child = await startChildDispatcher(harness);
      await hanging.waitFor(1, undefined, 30_000);
      const lease = await leaseOf(harness.db, deliveryId);
      child.kill("SIGKILL");
      await new Promise((resolve) => child!.once("exit", resolve));

      // A real restart takes at least a second (node, migrations) before the new process is ready.
      await sleep(1_000);
      await harness.restartDispatcher();
      const startedAt = await eventually(async () => {
        const { rows } = await harness.db.query<{ started_at: Date }>(
          "SELECT started_at FROM webhooks.workers ORDER BY started_at DESC LIMIT 2",
        );
        return rows.length === 2 ? rows[0]!.started_at : undefined;
      });
      const [row] = await settledDeliveries(
        harness,
        partner,
        `config_id=${config.config_id}`,
        1,
        "delivered",
        15_000,
      );
      expect(row).toMatchObject({ delivery_id: deliveryId, attempts: 2, last_status_code: 200 });
      const deliveredAt = new Date(row.delivered_at).getTime();
      // Measured on the database's and this host's clocks: under 5 s after the new dispatcher was up, and
      // well before the killed worker's lease would have freed the row.
      expect(deliveredAt - startedAt.getTime()).toBeLessThan(5_000);
      expect(deliveredAt).toBeLessThan(lease.getTime());
      expect(hanging.requests.map((r) => r.headers["x-service-attempt"])).toEqual(["1", "2"]);
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await hanging.close();
      await harness.restartDispatcher();
    }
  });
});

async function startChildDispatcher(harness: WebhookHarness): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", CHILD], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...harness.env, DATABASE_URL: harness.databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child dispatcher not ready: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready\n")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child dispatcher exited (${code}): ${output}`));
    });
  });
  return child;
}

interface DeliveryState {
  readonly status: "pending" | "delivering";
  /** SQL for lease_expires_at while delivering. */
  readonly leaseSql?: string;
  readonly claimedBy?: string;
}

/** A delivery row written behind the API's back, due a second ago; `delivering` rows have made attempt 1. */
async function insertDelivery(
  db: Queryable,
  partner: Partner,
  configId: string,
  state: DeliveryState,
): Promise<string> {
  const deliveryId = newId("whd");
  await db.query(
    `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type, body,
       status, attempts, next_attempt_at, lease_expires_at, claimed_by)
     VALUES ($1, $2, $3, $4, $5, 2, 'transaction.success', $6, $7, $8, now() - interval '1 second',
             ${state.leaseSql ?? "NULL"}, $9)`,
    [
      deliveryId,
      newId("evt"),
      configId,
      partner.partnerId,
      newTxId(),
      Buffer.from('{"claims":true}'),
      state.status,
      state.status === "delivering" ? 1 : 0,
      state.claimedBy ?? null,
    ],
  );
  return deliveryId;
}

async function leaseOf(db: Queryable, deliveryId: string): Promise<Date> {
  const { rows } = await db.query<{ lease_expires_at: Date | null }>(
    "SELECT lease_expires_at FROM webhooks.deliveries WHERE delivery_id = $1",
    [deliveryId],
  );
  const lease = rows[0]?.lease_expires_at;
  if (!lease) throw new Error(`delivery ${deliveryId} holds no lease`);
  return lease;
}

/** The real database, except that the first attempt record fails as if the connection had dropped. */
function failingFirstAttemptRecord(db: Database): Database {
  let failed = false;
  const guard = (target: Queryable): Queryable => ({
    query(sql, params) {
      if (!failed && sql.includes("INSERT INTO webhooks.delivery_attempts")) {
        failed = true;
        // The connection lost while COMMIT's answer was awaited: the adapter cannot retry that (the
        // outcome is unknown), so the record of this attempt is lost. (A plain lost connection before
        // COMMIT would be retried by the adapter and the record made after all.)
        return Promise.reject(
          new DatabaseUnavailableError("unknown", new Error("Connection terminated unexpectedly")),
        );
      }
      return target.query(sql, params);
    },
    exec: (sql) => target.exec(sql),
  });
  return {
    kind: db.kind,
    ...guard(db),
    transaction: (fn) => db.transaction((tx) => fn(guard(tx))),
    close: () => db.close(),
  };
}

/** The real database, except that liveness renewals fail while `renewals.cut` (a dispatcher cut off). */
function failingRenewals(db: Database, renewals: { cut: boolean }): Database {
  return {
    kind: db.kind,
    query(sql, params) {
      if (renewals.cut && sql.includes("INSERT INTO webhooks.workers")) {
        return Promise.reject(new Error("injected: renewal refused"));
      }
      return db.query(sql, params);
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction(fn),
    close: () => db.close(),
  };
}
