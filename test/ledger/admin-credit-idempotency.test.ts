/**
 * Admin balance credits take an idempotency key with the contract of executePayout,
 * through the real gateway on real PostgreSQL: the key is required; the same key and body replay the
 * first answer byte for byte with Idempotent-Replayed; another body (or another partner) is
 * IDEMPOTENCY_KEY_REUSED; concurrent requests with one key credit once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { assertLedgerInvariants } from "./support/ledger-invariants.js";
import { balance, fundedPartner } from "./support/payout-fixtures.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await assertLedgerInvariants(platform.runtime.db);
  await platform.close();
});

const credit = (partnerId: string, body: unknown, key?: string) =>
  platform.admin(
    "POST",
    `/admin/partners/${partnerId}/balance/credits`,
    body,
    key === undefined ? {} : { "X-Idempotency-Key": key },
  );

async function creditMovements(partnerId: string): Promise<number> {
  const res = await platform.runtime.db.query<{ n: string }>(
    "SELECT count(*) AS n FROM ledger.movements WHERE partner_id = $1 AND kind = 'credit'",
    [partnerId],
  );
  return Number(res.rows[0]?.n);
}

describe("idempotent admin balance credits", () => {
  it("requires the key", async () => {
    const { partnerId } = await fundedPartner(platform, "0");
    const missing = await credit(partnerId, { amount_usd: "10", reference: "wire" });
    expect([missing.status, missing.json.code, missing.json.field]).toEqual([
      400,
      "MISSING_IDEMPOTENCY_KEY",
      "X-Idempotency-Key",
    ]);
    const bad = await credit(partnerId, { amount_usd: "10", reference: "wire" }, "é");
    expect([bad.status, bad.json.code]).toEqual([400, "INVALID_FIELD"]);
    expect(await balance(platform, partnerId)).toBe("0");
    expect(await creditMovements(partnerId)).toBe(0);
  });

  it("replays the first answer byte for byte, even after other credits; another body or partner is REUSED", async () => {
    const { partnerId } = await fundedPartner(platform, "0");
    const body = { amount_usd: "25.5", reference: "wire 2026-11-24" };
    const first = await credit(partnerId, body, "wire-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(first.text).toBe(`{"partner_id":"${partnerId}","balance_usd":"25.5"}`);

    expect((await credit(partnerId, { amount_usd: "1", reference: "other" }, "wire-2")).status).toBe(201);
    const replay = await credit(partnerId, body, "wire-1");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);

    const otherAmount = await credit(partnerId, { ...body, amount_usd: "26" }, "wire-1");
    expect([otherAmount.status, otherAmount.json.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
    // Two amounts that are one and the same binary double are still two requests.
    const big = await credit(partnerId, '{"amount_usd":90071992547409.92,"reference":"big"}', "wire-big");
    expect(big.status, big.text).toBe(201);
    const nextCent = await credit(
      partnerId,
      '{"amount_usd":90071992547409.93,"reference":"big"}',
      "wire-big",
    );
    expect([nextCent.status, nextCent.json.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
    const sameAmount = await credit(
      partnerId,
      '{"amount_usd":"90071992547409.920","reference":"big"}',
      "wire-big",
    );
    expect(sameAmount.headers.get("idempotent-replayed")).toBe("true");
    const other = await fundedPartner(platform, "0");
    const otherPartner = await credit(other.partnerId, body, "wire-1");
    expect([otherPartner.status, otherPartner.json.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);

    expect(await balance(platform, partnerId)).toBe("90071992547436.42");
    expect(await balance(platform, other.partnerId)).toBe("0");
    expect(await creditMovements(partnerId)).toBe(3);
  });

  it("credits once for 20 concurrent requests with one key", async () => {
    const { partnerId } = await fundedPartner(platform, "0");
    const body = { amount_usd: "7.25", reference: "concurrent" };
    const answers = await Promise.all(Array.from({ length: 20 }, () => credit(partnerId, body, "same-key")));

    const created = answers.filter((a) => a.status === 201);
    const inUse = answers.filter((a) => a.status === 409);
    expect(created.length + inUse.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    for (const a of created) expect(a.text).toBe(`{"partner_id":"${partnerId}","balance_usd":"7.25"}`);
    for (const a of inUse) {
      expect(a.json.code).toBe("IDEMPOTENCY_KEY_IN_USE");
      expect(a.headers.get("retry-after")).toBe("1");
    }
    expect(await balance(platform, partnerId)).toBe("7.25");
    expect(await creditMovements(partnerId)).toBe(1);
    const after = await credit(partnerId, body, "same-key");
    expect([after.status, after.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(await balance(platform, partnerId)).toBe("7.25");
  });
});
