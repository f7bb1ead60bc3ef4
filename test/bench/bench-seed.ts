import type { CustomerRequest, LookupPaymentCodeRequest } from "@payouts/client";
import { SANDBOX_CORRIDORS } from "@payouts/pricing/sandbox-defaults";
import { adminCall, type Credentials, type PlatformEndpoints, partnerClient } from "./platform-api.js";

/** The partner every scenario runs as. */
export interface BenchTenant extends Credentials {
  readonly partnerId: string;
  readonly customerId: string;
}

/** A registered sender (BR), so lookups have a customer to derive the sender from. */
export const BENCH_SENDER = {
  name_first: "Ana",
  name_last: "Souza",
  country: "BR",
  ic_type: "CPF",
  ic_number: "529.982.247-25",
  phone: "+55 11 98765-4321",
  email: "ana.souza@example.com",
} as const satisfies CustomerRequest;

/** A PIX CPF key in Brazil: valid check digits, no name enquiry needed. */
export const LOOKUP_DESTINATION = {
  country_code: "BR",
  payment_method: "payment_key",
  payment_destination: "529.982.247-25",
  payment_destination_code: "PIX",
} as const satisfies Omit<LookupPaymentCodeRequest, "customer_id">;

/** 54 BRL at 5.4 BRL per USD = 10 USD, plus 1.5 % and 0.30 USD: 10.45 USD debited per payout. */
export const QUOTE_AMOUNT_BRL = 54;

/** So many payouts never run the balance dry within a run. */
const OPENING_BALANCE_USD = "100000000";

/**
 * FX rates and corridors of every corridor currency (the `npm start` sandbox values), and a partner that
 * supports them all with the sandbox fees, one app whose preview rate limit is far above any rate
 * measured here, a large balance and one registered customer.
 */
export async function seedDistributed(platform: PlatformEndpoints): Promise<BenchTenant> {
  for (const c of SANDBOX_CORRIDORS) {
    await adminCall(platform, 200, "PUT", `/admin/fx-rates/${c.currency}`, { rate_per_usd: c.ratePerUsd });
    await adminCall(platform, 200, "PUT", `/admin/corridors/${c.countryCode}`, {
      currency: c.currency,
      min_amount: c.minAmount,
      max_amount: c.maxAmount,
      enabled: true,
    });
  }
  const partner = await adminCall(platform, 201, "POST", "/admin/partners", {
    name: "Benchmark partner",
    supported_currencies: ["USD", ...SANDBOX_CORRIDORS.map((c) => c.currency)],
    fees: { percent: "1.5", fixed_usd: "0.30" },
  });
  const partnerId: string = partner.json.partner_id;
  const app = await adminCall(platform, 201, "POST", `/admin/partners/${partnerId}/apps`, {
    preview_rate_limit_per_minute: 1_000_000,
  });
  await adminCall(
    platform,
    201,
    "POST",
    `/admin/partners/${partnerId}/balance/credits`,
    { amount_usd: OPENING_BALANCE_USD, reference: "benchmark funding" },
    { "X-Idempotency-Key": `fund-${partnerId}` },
  );
  const creds = { clientId: app.json.client_id as string, clientSecret: app.json.client_secret as string };
  return { partnerId, ...creds, customerId: await registerCustomer(platform, creds) };
}

/** The embedded sandbox is seeded by `npm start` itself; only a customer is added. */
export async function seedEmbedded(platform: PlatformEndpoints, sandbox: Credentials): Promise<BenchTenant> {
  const balance = await partnerClient(platform, sandbox).getBalance();
  if (balance.currency !== "USD")
    throw new Error(`unexpected sandbox balance answer: ${JSON.stringify(balance)}`);
  return { partnerId: "ptr_sandbox", ...sandbox, customerId: await registerCustomer(platform, sandbox) };
}

async function registerCustomer(platform: PlatformEndpoints, creds: Credentials): Promise<string> {
  const customer = await partnerClient(platform, creds).createCustomer(BENCH_SENDER);
  return customer.customer_id;
}

/** A partner with one app and nothing else: the webhook scenarios' partners A and B. */
export async function seedWebhookPartner(platform: PlatformEndpoints, name: string): Promise<BenchTenant> {
  const partner = await adminCall(platform, 201, "POST", "/admin/partners", {
    name,
    supported_currencies: ["USD", "BRL"],
    fees: { percent: "1.5", fixed_usd: "0.30" },
  });
  const partnerId: string = partner.json.partner_id;
  const app = await adminCall(platform, 201, "POST", `/admin/partners/${partnerId}/apps`, {});
  return {
    partnerId,
    clientId: app.json.client_id as string,
    clientSecret: app.json.client_secret as string,
    customerId: "none",
  };
}
