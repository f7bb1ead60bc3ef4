/**
 * Steady payouts through the partner API while the database misbehaves, as a careful partner makes them:
 * every step that answers 503 is retried after its Retry-After (executePayout with the same idempotency
 * key), and every answer is tallied so a test can assert that nothing but the documented statuses came
 * back. Afterwards `auditPayouts` checks the money against what the partner was told.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec } from "@payouts/platform/money/decimal";
import { expect } from "vitest";
import type { ApiResponse } from "../../support/call-json.js";

export interface App {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface PlatformApi {
  admin(method: string, path: string, body?: unknown): Promise<ApiResponse>;
  partner(
    app: App,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
}

export interface Tally {
  /** Count of answers per "status code" (503s also per partner-facing code). */
  readonly statuses: Map<string, number>;
  /** Answers that are neither success nor a clean 503 with Retry-After. */
  readonly unexpected: string[];
  /** tx ids whose executePayout answered 200. */
  readonly executed: Set<string>;
}

export const newTally = (): Tally => ({ statuses: new Map(), unexpected: [], executed: new Set() });

const RETRY_FOR_MS = 90_000;

/** Calls `call` until it answers something other than a clean 503; tallies every answer. */
export async function untilAnswered(
  tally: Tally,
  what: string,
  call: () => Promise<ApiResponse>,
  expected: readonly number[],
): Promise<ApiResponse> {
  const deadline = Date.now() + RETRY_FOR_MS;
  for (;;) {
    let res: ApiResponse;
    try {
      res = await call();
    } catch (error) {
      // The listener itself must stay up: a refused or reset connection is a failure of the test.
      tally.unexpected.push(`${what}: ${(error as Error).message}`);
      throw error;
    }
    const key = res.status === 503 ? `503 ${res.json?.code}` : String(res.status);
    tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
    if (res.status === 503) {
      const retryAfter = Number(res.headers.get("retry-after"));
      if (res.json?.code !== "SERVICE_UNAVAILABLE" || !(retryAfter > 0)) {
        tally.unexpected.push(`${what}: 503 without SERVICE_UNAVAILABLE and Retry-After: ${res.text}`);
      }
      if (Date.now() > deadline) throw new Error(`${what} still unavailable after ${RETRY_FOR_MS} ms`);
      // A shorter pause than Retry-After keeps the test quick; the header's presence is what is checked.
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    if (!expected.includes(res.status)) tally.unexpected.push(`${what}: ${res.status} ${res.text}`);
    return res;
  }
}

export async function setUpBrazil(api: PlatformApi): Promise<void> {
  expect((await api.admin("PUT", "/admin/fx-rates/BRL", { rate_per_usd: "5.4" })).status).toBe(200);
  const corridor = await api.admin("PUT", "/admin/corridors/BR", {
    currency: "BRL",
    min_amount: "1",
    max_amount: "50000",
    enabled: true,
  });
  expect(corridor.status).toBe(200);
}

export interface FundedPartner extends App {
  readonly partnerId: string;
  readonly customerId: string;
  readonly creditedUsd: string;
}

export async function fundedPartner(
  api: PlatformApi,
  creditUsd: string,
  receiverUrl?: string,
): Promise<FundedPartner> {
  const created = await api.admin("POST", "/admin/partners", {
    name: "Restart partner",
    supported_currencies: ["BRL"],
    fees: { percent: "1.5", fixed_usd: "0.30" },
  });
  expect(created.status, created.text).toBe(201);
  const partnerId: string = created.json.partner_id;
  const app = await api.admin("POST", `/admin/partners/${partnerId}/apps`, {});
  expect(app.status, app.text).toBe(201);
  const credit = await api.admin("POST", `/admin/partners/${partnerId}/balance/credits`, {
    amount_usd: creditUsd,
    reference: "restart test funding",
  });
  expect(credit.status, credit.text).toBe(201);
  const creds = { clientId: app.json.client_id, clientSecret: app.json.client_secret };
  if (receiverUrl) {
    const config = await api.partner(creds, "POST", "/webhookConfigs", {
      url: receiverUrl,
      events: ["transaction.success", "transaction.failed"],
    });
    expect(config.status, config.text).toBe(201);
  }
  const customer = await api.partner(creds, "POST", "/customers", {
    name_first: "Ana",
    name_last: "Silva",
    country: "BR",
  });
  expect(customer.status, customer.text).toBe(201);
  return { ...creds, partnerId, customerId: customer.json.customer_id, creditedUsd: creditUsd };
}

/** lookup → quote → execute for one 54 BRL (10.45 USD with fees) payout, retrying 503s. */
export async function payOnce(
  api: PlatformApi,
  partner: FundedPartner,
  n: number,
  tally: Tally,
): Promise<void> {
  const lookup = await untilAnswered(
    tally,
    "lookupPaymentCode",
    () =>
      api.partner(partner, "POST", "/lookupPaymentCode", {
        customer_id: partner.customerId,
        country_code: "BR",
        payment_method: "payment_key",
        payment_destination: "52998224725",
        payment_destination_code: "PIX",
        partner_transaction_id: `restart-${n}`,
      }),
    [200],
  );
  const txId: string | undefined = lookup.json?.tx_id;
  if (!txId) return;
  const quote = await untilAnswered(
    tally,
    "getQuotation",
    () => api.partner(partner, "POST", "/getQuotation", { tx_id: txId, amount: 54 }),
    [200],
  );
  if (quote.status !== 200) return;
  const executed = await untilAnswered(
    tally,
    "executePayout",
    () =>
      api.partner(
        partner,
        "POST",
        "/executePayout",
        { tx_id: txId },
        { "X-Idempotency-Key": `restart-${txId}` },
      ),
    [200],
  );
  if (executed.status === 200) tally.executed.add(txId);
}

/** `count` payouts, `concurrency` at a time. */
export async function payMany(
  api: PlatformApi,
  partner: FundedPartner,
  count: number,
  concurrency: number,
  tally: Tally,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await payOnce(api, partner, next++, tally);
    }),
  );
}

/**
 * The money against what the partner was told: exactly the payouts it saw executed were debited (once
 * each, 10.45 USD), and the balance is the credit minus those debits plus the reversals of failed ones.
 */
export async function auditPayouts(db: Queryable, partner: FundedPartner, tally: Tally): Promise<void> {
  const rows = await db.query<{ tx_id: string; status: string; debited_usd: string | null }>(
    "SELECT tx_id, status, debited_usd FROM ledger.transactions WHERE partner_id = $1 AND debited_usd IS NOT NULL",
    [partner.partnerId],
  );
  expect(new Set(rows.rows.map((r) => r.tx_id))).toEqual(tally.executed);
  for (const row of rows.rows) expect(new Dec(row.debited_usd!).eq("10.45"), row.tx_id).toBe(true);
  const kept = rows.rows.filter((r) => r.status !== "FAILED" && r.status !== "REFUNDED");
  const expected = new Dec(partner.creditedUsd).minus(new Dec("10.45").times(kept.length));
  const balance = await db.query<{ balance: string }>(
    "SELECT balance FROM ledger.accounts WHERE partner_id = $1 AND kind = 'balance'",
    [partner.partnerId],
  );
  expect(new Dec(balance.rows[0]!.balance).eq(expected), `balance ${balance.rows[0]!.balance}`).toBe(true);
}
