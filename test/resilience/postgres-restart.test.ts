/**
 * `npm start`'s process (every service in one process) against a PostgreSQL server of this test's own,
 * which is restarted (`pg_ctl restart -m fast`, then `-m immediate`) and stopped for a few seconds while
 * payouts run. The process must not exit; calls during the outage are clean 503s with Retry-After; calls
 * afterwards succeed; every background loop (relay, rail poller, webhook workers) resumes; and the money
 * matches what the partner was told, with durable commits on (fsync and synchronous_commit).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertLedgerInvariants } from "../ledger/support/ledger-invariants.js";
import { callJson } from "../support/call-json.js";
import { freePort } from "../support/free-port.js";
import { type OwnPostgresServer, startOwnPostgresServer } from "../support/own-postgres-server.js";
import { startTestReceiver, type TestReceiver } from "../webhooks/support/test-receiver.js";
import {
  auditPayouts,
  fundedPartner,
  newTally,
  type PlatformApi,
  payMany,
  setUpBrazil,
} from "./support/payout-workload.js";

const ROOT = join(import.meta.dirname, "..", "..");

let server: OwnPostgresServer;
let receiver: TestReceiver;
let child: ChildProcess;
let output = "";
let exited: { code: number | null; signal: string | null } | undefined;
let dataDir: string;
let databaseUrl: string;
let api: PlatformApi;

beforeAll(async () => {
  server = await startOwnPostgresServer();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query("CREATE DATABASE payouts");
  await admin.end();
  databaseUrl = server.url.replace(/\/postgres$/, "/payouts");
  receiver = await startTestReceiver();
  dataDir = mkdtempSync(join(tmpdir(), "payouts-restart-"));
  const port = await freePort();
  const adminPort = await freePort();
  child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", "services/runtime/src/embedded.ts"],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: databaseUrl,
        PAYOUTS_DATA_DIR: dataDir,
        PORT: String(port),
        ADMIN_PORT: String(adminPort),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        SANDBOX_AUTO_SETTLE_MS: "300",
        RAIL_CALLBACK_POLL_MS: "100",
        OUTBOX_POLL_MS: "50",
        RAIL_RETRY_INTERVAL_MS: "200",
        WEBHOOK_POLL_INTERVAL_MS: "100",
        WEBHOOK_RETRY_SCHEDULE_MS: "0,200,500,1000",
        WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  child.once("exit", (code, signal) => {
    exited = { code, signal };
  });
  const deadline = Date.now() + 120_000;
  while (!output.includes("Press Ctrl+C")) {
    if (exited || Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const token = /admin token:\s+(\S+)/.exec(output)?.[1] ?? "";
  const partnerUrl = `http://127.0.0.1:${port}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  api = {
    admin: (method, path, body, headers = {}) =>
      callJson(`${adminUrl}${path}`, method, { authorization: `Bearer ${token}`, ...headers }, body),
    partner: (app, method, path, body, headers = {}) =>
      callJson(
        `${partnerUrl}${path}`,
        method,
        {
          authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
          ...headers,
        },
        body,
      ),
  };
}, 180_000);

afterAll(async () => {
  if (child && !exited) {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  await receiver?.close();
  server?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start on PostgreSQL that restarts and goes away", () => {
  it("survives fast and immediate restarts and an outage, answers 503 meanwhile, and keeps the money exact", async () => {
    await setUpBrazil(api);
    const partner = await fundedPartner(api, "10000", `${receiver.url}/p`);
    const tally = newTally();
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

    const load = payMany(api, partner, 40, 4, tally);
    await pause(500);
    server.restart("fast");
    await pause(800);
    server.restart("immediate");
    await pause(800);
    server.stop("fast");
    // An outage of a few seconds: longer than the database adapter's reconnect budget (5 s).
    const during = await api.partner(partner, "GET", "/balance");
    await pause(6_000);
    const stillDown = await api.admin("GET", `/admin/partners/${partner.partnerId}/balance`);
    server.start();
    await load;
    expect(exited).toBeUndefined();

    // Calls during the outage were clean 503s; after it, a new payout goes straight through.
    for (const res of [during, stillDown]) {
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("SERVICE_UNAVAILABLE");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    await payMany(api, partner, 2, 1, tally);
    expect(tally.unexpected).toEqual([]);
    expect(tally.executed.size).toBe(42);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const query: Parameters<typeof auditPayouts>[0] = {
        query: async (sql, params) => {
          const res = await db.query(sql, params as unknown[]);
          return { rows: res.rows, rowCount: res.rowCount ?? 0 };
        },
        exec: async (sql) => void (await db.query(sql)),
      };
      const settled = async () => {
        const res = await db.query<{ tx_id: string }>(
          "SELECT tx_id FROM ledger.transactions WHERE partner_id = $1 AND status = 'SUCCESS'",
          [partner.partnerId],
        );
        return new Set(res.rows.map((r) => r.tx_id));
      };
      await expect.poll(settled, { timeout: 60_000, interval: 250 }).toEqual(tally.executed);
      const notified = async () =>
        new Set(
          receiver.requests
            .filter((r) => r.path.endsWith("/webhooks/transactions/success"))
            .map((r) => JSON.parse(r.rawBody.toString("utf8")).tx_id as string),
        );
      await expect.poll(notified, { timeout: 60_000, interval: 250 }).toEqual(tally.executed);
      await auditPayouts(query, partner, tally);
      await assertLedgerInvariants(query);
    } finally {
      await db.end();
    }
    expect(exited, output).toBeUndefined();
  }, 240_000);
});
