/**
 * A partner's reconciliation view of a day (`GET /statements/daily/{date}/transactions`) through
 * @payouts/client on the real platform: each transaction created that day in the partner's statement
 * time zone, keyed by its reference, with its status now and the statement lines it produced.
 */
import { isPayoutsError } from "@payouts/client";
import { Dec } from "@payouts/platform/money/decimal";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearOfMidnight, localDay } from "../support/partner-days.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  BR_SENDER,
  clientOf,
  fundedPartner,
  quotedTransaction,
  setUpBrazil,
} from "./support/client-fixtures.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000" } });
  await setUpBrazil(platform);
});
afterAll(async () => {
  await platform?.close();
});

const ZONE = "Pacific/Kiritimati"; // UTC+14: its day differs from UTC's for most of the UTC day

describe("the reconciliation view of a day", () => {
  it("lists the day's transactions oldest first with their status now and every line they produced", async () => {
    const partner = await fundedPartner(platform, "100");
    const zone = await platform.admin("PUT", `/admin/partners/${partner.partnerId}/statement-settings`, {
      time_zone: ZONE,
    });
    expect(zone.status).toBe(200);
    const client = clientOf(platform, partner);
    const customer = await client.createCustomer(BR_SENDER);

    // Both transactions and every line of them must fall on one day in the partner's zone: write them
    // clear of its midnight.
    await clearOfMidnight(ZONE, 60_000);
    const refunded = await quotedTransaction(client, customer.customer_id, "order-refunded");
    await client.executePayout({ tx_id: refunded }, { idempotencyKey: `k-${refunded}` });
    const settle = await platform.admin("POST", `/admin/sandbox/transactions/${refunded}/settle`, {
      outcome: "SUCCESS",
    });
    expect(settle.status).toBe(200);
    const refund = await platform.admin(
      "POST",
      `/admin/transactions/${refunded}/refund`,
      { reason: "test" },
      {
        "X-Idempotency-Key": `refund-${refunded}`,
      },
    );
    expect(refund.status).toBe(200);
    const pending = await quotedTransaction(client, customer.customer_id, "order-pending");

    const today = localDay((await client.getTransaction(refunded)).created_at ?? Number.NaN, ZONE);
    const page = await client.listDailyTransactions(today);
    expect(page).toMatchObject({ date: today, time_zone: ZONE, next_cursor: expect.any(String) });
    expect(page.transactions.map((t) => [t.partner_transaction_id, t.tx_id, t.status])).toEqual([
      ["order-refunded", refunded, "REFUNDED"],
      ["order-pending", pending, "PENDING"],
    ]);
    const [paid, open] = page.transactions;
    // 54 BRL at 5.4 per USD: 10 USD, fees 1.5 % + 0.30 = 0.45; debited, then refunded in full.
    expect(paid).toMatchObject({ amount: "54", currency: "BRL", amount_usd: "10", fee_usd: "0.45" });
    expect(paid?.lines.map((l) => [l.type, l.amount_usd, l.statement_date])).toEqual([
      ["payout", "-10", today],
      ["fee", "-0.45", today],
      ["refund", "10", today],
      ["fee", "0.45", today],
    ]);
    expect(paid?.balance_effect_usd).toBe("0");
    expect(open).toMatchObject({ lines: [], balance_effect_usd: "0", fee_usd: "0.45" });

    // The lines are the statement's: the same ids and amounts as the feed's lines of the transaction.
    // (The feed serves a line once older database transactions have ended: poll for it.)
    const feedLinesOf = async () =>
      (await client.listBalanceEntries({ limit: 100 })).entries
        .filter((l) => l.tx_id === refunded)
        .map((l) => [l.id, l.amount_usd]);
    await expect.poll(feedLinesOf, { timeout: 15_000 }).toEqual(paid?.lines.map((l) => [l.id, l.amount_usd]));
    const sum = (paid?.lines ?? []).reduce((s, l) => s.plus(l.amount_usd), new Dec(0));
    expect(sum.toFixed()).toBe(paid?.balance_effect_usd);

    // One per page, following the cursor, gives the same transactions; the last cursor answers itself.
    const first = await client.listDailyTransactions(today, { limit: 1 });
    const second = await client.listDailyTransactions(today, { limit: 1, after: first.next_cursor ?? "" });
    const end = await client.listDailyTransactions(today, { limit: 1, after: second.next_cursor ?? "" });
    expect([...first.transactions, ...second.transactions].map((t) => t.tx_id)).toEqual([refunded, pending]);
    expect(end).toMatchObject({ transactions: [], next_cursor: second.next_cursor });

    // The day before, in the partner's zone, holds none of them.
    const yesterday = DateTime.fromISO(today).minus({ days: 1 }).toISODate() ?? "";
    expect((await client.listDailyTransactions(yesterday)).transactions).toEqual([]);
  }, 150_000);

  it("refuses a bad date, a foreign cursor and a day not begun yet with stable codes", async () => {
    const partner = await fundedPartner(platform, "1");
    const client = clientOf(platform, partner);
    const codeOf = async (call: Promise<unknown>) => {
      const error = await call.catch((e: unknown) => e);
      return isPayoutsError(error) ? [error.status, error.code] : ["no error"];
    };
    expect(await codeOf(client.listDailyTransactions("2026-02-30"))).toEqual([400, "INVALID_FIELD"]);
    const today = DateTime.utc().toISODate() ?? "";
    expect(await codeOf(client.listDailyTransactions(today, { after: "bogus" }))).toEqual([
      400,
      "INVALID_FIELD",
    ]);
    const nextYear = DateTime.utc().plus({ years: 1 }).toISODate() ?? "";
    expect(await codeOf(client.listDailyTransactions(nextYear))).toEqual([409, "STATEMENT_DAY_NOT_STARTED"]);
  });
});
