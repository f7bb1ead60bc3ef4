/**
 * A partner's balance is bounded (MAX_BALANCE_USD in the ledger's domain): a credit above the limit is
 * INVALID_AMOUNT, a credit that would take the balance past it is BALANCE_LIMIT_EXCEEDED, through the real
 * gateway on real PostgreSQL, and neither leaves a movement or an idempotency key behind. Without the bound
 * a balance past NUMERIC(38,18) failed inside the database as a 500.
 */
import { MAX_BALANCE_USD } from "@payouts/ledger/limits";
import { Dec } from "@payouts/platform/money/decimal";
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

const credit = (partnerId: string, amount: string, key: string) =>
  platform.admin(
    "POST",
    `/admin/partners/${partnerId}/balance/credits`,
    { amount_usd: amount, reference: "wire" },
    { "X-Idempotency-Key": key },
  );

describe("the balance limit", () => {
  it("is documented as the credit's maximum in the admin OpenAPI document", async () => {
    const doc = (await platform.admin("GET", "/admin/openapi.json")).json;
    const amount = doc.components.schemas.CreditRequest.properties.amount_usd;
    expect(amount.maximum).toBe(Number(MAX_BALANCE_USD));
  });

  it.each(["100000000000000000000", "99999999999999999999", new Dec(MAX_BALANCE_USD).plus("0.01").toFixed()])(
    "refuses a credit of %s USD with INVALID_AMOUNT",
    async (amount) => {
      const { partnerId } = await fundedPartner(platform, "0");
      const res = await credit(partnerId, amount, `too-big-${amount}`);
      expect([res.status, res.json.code, res.json.field], res.text).toEqual([
        400,
        "INVALID_AMOUNT",
        "amount_usd",
      ]);
      expect(await balance(platform, partnerId)).toBe("0");
    },
  );

  it("credits up to the limit, then refuses what would pass it with BALANCE_LIMIT_EXCEEDED; the key stays free", async () => {
    const { partnerId } = await fundedPartner(platform, "0");
    const full = await credit(partnerId, new Dec(MAX_BALANCE_USD).minus(1).toFixed(), "fill");
    expect(full.status, full.text).toBe(201);
    const over = await credit(partnerId, "1.01", "over");
    expect([over.status, over.json.code, over.json.field], over.text).toEqual([
      409,
      "BALANCE_LIMIT_EXCEEDED",
      "amount_usd",
    ]);
    expect(over.json.message).toContain("at most 1 can be credited now");
    expect(await balance(platform, partnerId)).toBe(new Dec(MAX_BALANCE_USD).minus(1).toFixed());
    const exact = await credit(partnerId, "1", "over");
    expect(exact.status, exact.text).toBe(201);
    expect(await balance(platform, partnerId)).toBe(MAX_BALANCE_USD);
  });
});
