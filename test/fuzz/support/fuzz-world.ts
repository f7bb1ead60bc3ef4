/**
 * The data the fuzz suite aims at: a platform with rates, corridors, two partners with balances, a
 * customer, transactions in every reachable state (PENDING, quoted, PROCESSING, SUCCESS), a webhook config
 * and its deliveries. Generated requests draw their ids from here, so they get past "not found" and reach
 * the rules behind it; ids that 2xx answers reveal are added as the run goes.
 */
import { randomUUID } from "node:crypto";
import type { Database } from "@payouts/platform/database/database";
import { expect } from "vitest";
import {
  type ApiResponse,
  type Credentials,
  startTestPlatform,
  type TestPlatform,
} from "../../support/test-platform.js";

const RATES = { BRL: "5.4", KES: "129.25", VND: "26300", ARS: "1000" } as const;
const CORRIDORS = [
  ["BR", "BRL", "1", "50000"],
  ["KE", "KES", "10", "250000"],
  ["VN", "VND", "10000", "500000000"],
  ["AR", "ARS", "100", "5000000"],
] as const;

/** Id fields the generators fill from the pool, by the name they have in bodies, paths and queries. */
const POOLED = [
  "tx_id",
  "customer_id",
  "config_id",
  "delivery_id",
  "partner_id",
  "client_id",
  "currency",
  "country_code",
] as const;
type PooledName = (typeof POOLED)[number];

export interface FuzzWorld {
  readonly platform: TestPlatform;
  readonly partnerPort: number;
  readonly adminPort: number;
  /** The partner whose credentials the fuzzed partner requests use. */
  readonly partner: Credentials & { partnerId: string };
  /** Known values for a field or parameter name (`id` is a config or delivery id), or undefined. */
  known(name: string): readonly string[] | undefined;
  /** Adds the ids a 2xx answer reveals. */
  harvest(json: unknown): void;
  close(): Promise<void>;
}

export async function startFuzzWorld(): Promise<FuzzWorld> {
  const platform = await startTestPlatform({ env: { WEBHOOK_RETRY_SCHEDULE_MS: "3600000" } });
  const pool = new Map<PooledName, Set<string>>(POOLED.map((name) => [name, new Set<string>()]));
  const add = (name: PooledName, value: unknown) => {
    const set = pool.get(name);
    if (set && typeof value === "string" && value !== "" && set.size < 200) set.add(value);
  };
  const ok = (res: ApiResponse, what: string): ApiResponse => {
    expect(res.status, `${what}: ${res.text}`).toBeLessThan(300);
    harvest(res.json);
    return res;
  };
  const harvest = (json: unknown) => {
    const pending = [json];
    for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
      if (typeof node !== "object" || node === null) continue;
      for (const [key, value] of Object.entries(node)) {
        if (POOLED.includes(key as PooledName)) add(key as PooledName, value);
        else if (typeof value === "object") pending.push(value);
      }
    }
  };

  for (const [currency, rate_per_usd] of Object.entries(RATES)) {
    ok(await platform.admin("PUT", `/admin/fx-rates/${currency}`, { rate_per_usd }), "fx rate");
  }
  for (const [country, currency, min_amount, max_amount] of CORRIDORS) {
    const body = { currency, min_amount, max_amount, enabled: true };
    ok(await platform.admin("PUT", `/admin/corridors/${country}`, body), "corridor");
  }
  const pricing = {
    supported_currencies: ["USD", "BRL", "KES", "VND"],
    fees: { percent: "1.5", fixed_usd: "0.30" },
  };
  const partner = await platform.createPartner(pricing);
  const other = await platform.createPartner(pricing);
  for (const p of [partner, other]) {
    add("partner_id", p.partnerId);
    add("client_id", p.clientId);
    const credit = { amount_usd: "100000", reference: "fuzz world" };
    const key = { "x-idempotency-key": randomUUID() };
    ok(await platform.admin("POST", `/admin/partners/${p.partnerId}/balance/credits`, credit, key), "credit");
  }
  // An app of the second partner that the admin fuzz may revoke; the first partner's app stays usable.
  ok(await platform.admin("POST", `/admin/partners/${other.partnerId}/apps`, {}), "spare app");

  // The fuzzed partner's ids first: examples take the first known id.
  for (const p of [partner, other]) {
    const customer = ok(
      await platform.partner(p, "POST", "/customers", {
        name_first: "Ana",
        name_last: "Souza",
        country: "BR",
        ic_type: "CPF",
        ic_number: "529.982.247-25",
      }),
      "customer",
    );
    const customerId = customer.json.customer_id as string;
    const lookup = async () =>
      ok(
        await platform.partner(p, "POST", "/lookupPaymentCode", {
          customer_id: customerId,
          country_code: "BR",
          payment_method: "payment_key",
          payment_destination: "52998224725",
          payment_destination_code: "PIX",
        }),
        "lookup",
      ).json.tx_id as string;
    const quote = async (txId: string) =>
      ok(await platform.partner(p, "POST", "/getQuotation", { tx_id: txId, amount: 100 }), "quote");
    const execute = async (txId: string) =>
      ok(
        await platform.partner(
          p,
          "POST",
          "/executePayout",
          { tx_id: txId },
          { "x-idempotency-key": randomUUID() },
        ),
        "execute",
      );
    await lookup(); // stays PENDING without a quote
    await quote(await lookup()); // PENDING with a quote
    const processing = await lookup();
    await quote(processing);
    await execute(processing);
    const settled = await lookup();
    await quote(settled);
    await execute(settled);
    const outcome = { outcome: "SUCCESS" };
    ok(await platform.admin("POST", `/admin/sandbox/transactions/${settled}/settle`, outcome), "settle");
  }

  // A receiver nobody listens on: deliveries fail and stay visible (retries are an hour apart).
  const config = ok(
    await platform.partner(partner, "POST", "/webhookConfigs", {
      url: "http://127.0.0.1:9/hooks",
      events: ["*"],
    }),
    "webhook config",
  );
  ok(
    await platform.partner(partner, "POST", `/webhookConfigs/${config.json.config_id}/test`),
    "webhook test",
  );
  ok(await platform.partner(partner, "GET", "/webhookDeliveries"), "deliveries");

  return {
    platform,
    partnerPort: platform.runtime.gateway.partnerPort,
    adminPort: platform.runtime.gateway.adminPort,
    partner,
    known(name) {
      if (name === "id") return [...(pool.get("config_id") ?? []), ...(pool.get("delivery_id") ?? [])];
      const set = pool.get(name as PooledName);
      return set && set.size > 0 ? [...set] : undefined;
    },
    harvest,
    close: () => platform.close(),
  };
}

/** Row counts of the tables a request writes in its own transaction (background workers' tables excluded). */
export async function rowCounter(db: Database): Promise<() => Promise<Record<string, number>>> {
  const existing = await db.query<{ name: string }>(
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
      WHERE table_schema || '.' || table_name = ANY($1)`,
    [WRITTEN_BY_REQUESTS],
  );
  const names = existing.rows.map((r) => r.name).sort();
  const sql = `SELECT ${names.map((n, i) => `(SELECT count(*) FROM ${n}) AS c${i}`).join(", ")}`;
  return async () => {
    const row = (await db.query<Record<string, string>>(sql)).rows[0] ?? {};
    return Object.fromEntries(names.map((n, i) => [n, Number(row[`c${i}`])]));
  };
}

/**
 * Deliveries, their attempts, processed events, worker heartbeats and rail submissions are written by
 * background workers (the dispatcher, the rail) at any moment, so they cannot be compared around one
 * request; rate-limit buckets are spent by refused requests by design.
 */
const WRITTEN_BY_REQUESTS = [
  "gateway.partners",
  "gateway.apps",
  "gateway.app_secrets",
  "lookup.customers",
  "pricing.fx_rates",
  "pricing.corridors",
  "pricing.partner_pricing",
  "ledger.accounts",
  "ledger.transactions",
  "ledger.status_history",
  "ledger.movements",
  "ledger.entries",
  "ledger.idempotency_keys",
  "ledger.outbox",
  "webhooks.configs",
];
