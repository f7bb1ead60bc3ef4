/**
 * The embedded runtime (in-process event bus) on real PostgreSQL: an outbox row is marked published only
 * once the webhook dispatcher has stored what it announces. While the dispatcher cannot store events, the
 * rows stay unpublished; closing the runtime then loses nothing, and the next start delivers them.
 */

import { createLogger } from "@payouts/platform/logging/logger";
import { type EmbeddedHandle, startEmbedded } from "@payouts/runtime/embedded-runtime";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson } from "../support/call-json.js";
import { freePort } from "../support/free-port.js";
import { createTestDatabase } from "../support/infra.js";
import { ADMIN_TOKEN } from "../support/test-platform.js";
import { startTestReceiver, type TestReceiver } from "../webhooks/support/test-receiver.js";
import {
  type FundedPartner,
  fundedPartner,
  newTally,
  type PlatformApi,
  payOnce,
  setUpBrazil,
} from "./support/payout-workload.js";

let database: { url: string; drop: () => Promise<void> };
let sql: pg.Client;
let receiver: TestReceiver;
let runtime: EmbeddedHandle | undefined;
let api: PlatformApi;

async function start(ports: { port: number; adminPort: number }): Promise<EmbeddedHandle> {
  return startEmbedded({
    env: {
      DATABASE_URL: database.url,
      PORT: String(ports.port),
      ADMIN_PORT: String(ports.adminPort),
      HOST: "127.0.0.1",
      ADMIN_TOKEN,
      RAIL_CALLBACK_SECRET: "test-rail-callback-secret-of-32-bytes",
      SANDBOX_AUTO_SETTLE_MS: "0",
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      OUTBOX_POLL_MS: "50",
      WEBHOOK_POLL_INTERVAL_MS: "50",
    },
    logger: createLogger({ service: "test", level: "silent" }),
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  sql = new pg.Client({ connectionString: database.url });
  // Other test files may end sessions on the shared server: a lost test connection fails a query, not the process.
  sql.on("error", () => {});
  await sql.connect();
  receiver = await startTestReceiver();
});

afterAll(async () => {
  await runtime?.close();
  await sql?.end();
  await receiver?.close();
  await database?.drop();
});

const notifiedTxIds = () =>
  new Set(
    receiver.requests
      .filter((r) => r.path.endsWith("/webhooks/transactions/success"))
      .map((r) => JSON.parse(r.rawBody.toString("utf8")).tx_id as string),
  );

async function successEvents(txIds: readonly string[]) {
  const res = await sql.query<{ tx_id: string; event_id: string; published: boolean }>(
    `SELECT tx_id, event_id, published_at IS NOT NULL AS published FROM ledger.outbox
      WHERE event_type = 'transaction.success' AND tx_id = ANY($1)`,
    [txIds],
  );
  return res.rows;
}

async function settledPayout(partner: FundedPartner, n: number): Promise<string> {
  const tally = newTally();
  await payOnce(api, partner, n, tally);
  expect(tally.unexpected).toEqual([]);
  const [txId] = [...tally.executed];
  const settled = await api.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
    outcome: "SUCCESS",
  });
  expect(settled.status, settled.text).toBe(200);
  return txId!;
}

describe("the embedded runtime's events", () => {
  it("stay unpublished until the dispatcher stored them, survive a close, and are delivered after a restart", async () => {
    const ports = { port: await freePort(), adminPort: await freePort() };
    runtime = await start(ports);
    api = {
      admin: (method, path, body, headers = {}) =>
        callJson(
          `http://127.0.0.1:${ports.adminPort}${path}`,
          method,
          { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers },
          body,
        ),
      partner: (app, method, path, body, headers = {}) =>
        callJson(
          `http://127.0.0.1:${ports.port}${path}`,
          method,
          {
            authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
            ...headers,
          },
          body,
        ),
    };
    await setUpBrazil(api);
    const partner = await fundedPartner(api, "1000", `${receiver.url}/p`);

    // The normal path first: settled → stored → published → notified.
    const first = await settledPayout(partner, 0);
    await expect.poll(notifiedTxIds, { timeout: 15_000 }).toEqual(new Set([first]));

    // The dispatcher can no longer store events: its intake table is gone.
    await sql.query("ALTER TABLE webhooks.processed_events RENAME TO processed_events_away");
    const later = [await settledPayout(partner, 1), await settledPayout(partner, 2)];
    // Give the relay many passes (it polls every 50 ms and backs off to at most 5 s).
    await new Promise((r) => setTimeout(r, 1_500));
    const pending = await successEvents(later);
    expect(pending.map((e) => e.tx_id).sort()).toEqual([...later].sort());
    expect(pending.filter((e) => e.published)).toEqual([]);

    // Shut down with those events in the outbox only, repair, start again: they are delivered.
    await runtime.close();
    runtime = undefined;
    await sql.query("ALTER TABLE webhooks.processed_events_away RENAME TO processed_events");
    runtime = await start(ports);
    await expect.poll(notifiedTxIds, { timeout: 30_000, interval: 100 }).toEqual(new Set([first, ...later]));
    await expect
      .poll(async () => (await successEvents([first, ...later])).every((e) => e.published), {
        timeout: 15_000,
      })
      .toBe(true);

    // Every published notification event was stored by the dispatcher.
    const unstored = await sql.query(
      `SELECT o.event_id FROM ledger.outbox o
        WHERE o.published_at IS NOT NULL
          AND o.event_type IN ('transaction.success', 'transaction.failed', 'transaction.refunded')
          AND NOT EXISTS (SELECT 1 FROM webhooks.processed_events p WHERE p.event_id = o.event_id)`,
    );
    expect(unstored.rows).toEqual([]);
  });

  it("close stops producers before consumers: rail poller, ledger (relay), dispatcher, then the rest", async () => {
    const stopped: string[] = [];
    for (const module of runtime!.modules) {
      const stop = module.stop.bind(module);
      Object.assign(module, {
        stop: async () => {
          stopped.push(module.name);
          await stop();
        },
      });
    }
    await runtime!.close();
    runtime = undefined;
    expect(stopped.slice(0, 3)).toEqual(["sandbox-rail", "ledger", "webhooks"]);
    expect([...stopped].sort()).toEqual(["ledger", "lookup", "pricing", "sandbox-rail", "webhooks"]);
  });
});
