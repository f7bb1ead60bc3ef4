/**
 * Every service in this process (gateway, ledger with its relay and background loops, webhook dispatcher
 * with its consumer and workers, sandbox rail with its callback poller) on the shared PostgreSQL server,
 * while every session of their database is terminated again and again (pg_terminate_backend: what a
 * PostgreSQL restart does to each connection). No uncaught exception or unhandled rejection may reach the
 * process; the partner sees only successes and clean 503s; afterwards every loop works again (payouts
 * settle, webhooks arrive) and the money is exact.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertLedgerInvariants } from "../ledger/support/ledger-invariants.js";
import { type ProcessFaults, watchProcessFaults } from "../support/process-faults.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { startTestReceiver, type TestReceiver } from "../webhooks/support/test-receiver.js";
import {
  auditPayouts,
  fundedPartner,
  newTally,
  type PlatformApi,
  payMany,
  setUpBrazil,
} from "./support/payout-workload.js";

let platform: TestPlatform;
let receiver: TestReceiver;
let faults: ProcessFaults;

beforeAll(async () => {
  faults = watchProcessFaults();
  receiver = await startTestReceiver();
  platform = await startTestPlatform({
    env: {
      SANDBOX_AUTO_SETTLE_MS: "300",
      RAIL_CALLBACK_POLL_MS: "100",
      OUTBOX_POLL_MS: "50",
      RAIL_RETRY_INTERVAL_MS: "200",
      LEDGER_EXPIRY_SWEEP_MS: "200",
      WEBHOOK_POLL_INTERVAL_MS: "100",
      WEBHOOK_RETRY_SCHEDULE_MS: "0,200,500",
    },
  });
});

afterAll(async () => {
  await platform?.close();
  await receiver?.close();
  faults?.stop();
});

/** Terminates every other session of the platform's database; returns how many it ended. */
async function terminateAllSessions(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const res = await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return res.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe("every service when the database ends all its sessions, repeatedly", () => {
  it("stays up, answers 503 or success, resumes every loop and keeps the money exact", async () => {
    const api: PlatformApi = platform;
    await setUpBrazil(api);
    const partner = await fundedPartner(api, "10000", `${receiver.url}/p`);
    const tally = newTally();

    let terminating = true;
    let terminated = 0;
    const terminator = (async () => {
      for (let round = 0; terminating && round < 12; round++) {
        await new Promise((r) => setTimeout(r, 250));
        terminated += await terminateAllSessions(platform.databaseUrl);
      }
    })();
    await payMany(api, partner, 40, 4, tally);
    terminating = false;
    await terminator;
    expect(terminated).toBeGreaterThan(0);

    // After the storm: a new payout goes through at once, and everything executed settles and is notified.
    await payMany(api, partner, 2, 1, tally);
    expect(tally.unexpected).toEqual([]);
    expect(tally.executed.size).toBe(42);
    const successIds = async () => {
      const res = await platform.runtime.db.query<{ tx_id: string }>(
        "SELECT tx_id FROM ledger.transactions WHERE partner_id = $1 AND status = 'SUCCESS'",
        [partner.partnerId],
      );
      return new Set(res.rows.map((r) => r.tx_id));
    };
    await expect.poll(successIds, { timeout: 60_000, interval: 200 }).toEqual(tally.executed);
    const notified = async () =>
      new Set(
        receiver.requests
          .filter((r) => r.path.endsWith("/webhooks/transactions/success"))
          .map((r) => JSON.parse(r.rawBody.toString("utf8")).tx_id as string),
      );
    await expect.poll(notified, { timeout: 60_000, interval: 200 }).toEqual(tally.executed);

    await auditPayouts(platform.runtime.db, partner, tally);
    await assertLedgerInvariants(platform.runtime.db);
    expect(faults.take()).toEqual([]);
  });
});
