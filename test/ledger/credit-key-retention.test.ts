/**
 * Operator credit keys are kept for good, through the real gateway on real PostgreSQL: a credit whose key
 * is older than the retention window of payout keys (IDEMPOTENCY_KEY_TTL_MS, 30 days) survives the ledger's
 * retention job, and a retry with that key replays the first answer instead of crediting again. A payout
 * key as old is still deleted, so the job itself did run.
 */
import { createLedgerRetention } from "@payouts/ledger/internal/retention/ledger-retention";
import { createLogger } from "@payouts/platform/logging/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { balance, fundedPartner } from "./support/payout-fixtures.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform.close();
});

const credit = (partnerId: string, key: string) =>
  platform.admin(
    "POST",
    `/admin/partners/${partnerId}/balance/credits`,
    { amount_usd: "40", reference: "wire 2026-10-01" },
    { "X-Idempotency-Key": key },
  );

/** Moves every stored key of the route 45 days into the past, as if it had been stored then. */
async function ageKeys(route: string): Promise<void> {
  await platform.runtime.db.query(
    `UPDATE ledger.idempotency_keys
        SET created_at = created_at - interval '45 days', expires_at = expires_at - interval '45 days'
      WHERE route = $1`,
    [route],
  );
}

async function keyCount(route: string, key: string): Promise<number> {
  const res = await platform.runtime.db.query<{ n: string }>(
    "SELECT count(*) AS n FROM ledger.idempotency_keys WHERE route = $1 AND idempotency_key = $2",
    [route, key],
  );
  return Number(res.rows[0]?.n);
}

describe("operator credit keys", () => {
  it("outlive the key retention window: the retention job keeps them and a late retry does not credit again", async () => {
    const { partnerId } = await fundedPartner(platform, "0");
    const first = await credit(partnerId, "wire-late-retry");
    expect(first.status).toBe(201);
    const creditRoute = "POST /admin/partners/{partner_id}/balance/credits";
    await ageKeys(creditRoute);
    // A payout key as old, the kind of row the job exists to delete.
    await platform.runtime.db.query(
      `INSERT INTO ledger.idempotency_keys (partner_id, route, idempotency_key, fingerprint, state, tx_id,
         error_reason, error_message, error_field, created_at, expires_at)
       VALUES ($1, 'ExecutePayout', 'old-payout-key', 'f', 'failed', 'tx_old', 'R', 'm', '',
         now() - interval '45 days', now() - interval '15 days')`,
      [partnerId],
    );

    const job = createLedgerRetention({
      db: platform.runtime.db,
      env: {},
      logger: createLogger({ service: "credit-key-retention-test", level: "silent" }),
      now: () => new Date(),
    });
    const deleted = await job.runOnce();
    expect(deleted["ledger.idempotency_keys"]).toBe(1);
    expect(await keyCount("ExecutePayout", "old-payout-key")).toBe(0);
    expect(await keyCount(creditRoute, "wire-late-retry")).toBe(1);

    const retry = await credit(partnerId, "wire-late-retry");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.text).toBe(first.text);
    expect(await balance(platform, partnerId)).toBe("40");
    const movements = await platform.runtime.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM ledger.movements WHERE partner_id = $1 AND kind = 'credit'",
      [partnerId],
    );
    expect(Number(movements.rows[0]?.n)).toBe(1);
  });
});
