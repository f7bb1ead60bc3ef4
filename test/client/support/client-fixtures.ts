/**
 * A started platform (real PostgreSQL, every service, the real gateway) with the BR corridor at 5.4 BRL
 * per USD, and funded partners reached through @payouts/client.
 */
import { createPayoutsClient, type PayoutsClient, type PayoutsClientOptions } from "@payouts/client";
import type { Credentials, TestPlatform } from "../../support/test-platform.js";

export const BR_SENDER = {
  name_first: "Ana",
  name_last: "Souza",
  country: "BR",
  ic_type: "CPF",
  ic_number: "529.982.247-25",
  email: "ana.souza@example.com",
} as const;

export const BR_PIX_DESTINATION = {
  country_code: "BR",
  payment_method: "payment_key",
  payment_destination: "52998224725",
  payment_destination_code: "PIX",
} as const;

export async function setUpBrazil(platform: TestPlatform): Promise<void> {
  const rate = await platform.admin("PUT", "/admin/fx-rates/BRL", { rate_per_usd: "5.4" });
  if (rate.status !== 200) throw new Error(`fx rate: ${rate.status} ${rate.text}`);
  const corridor = await platform.admin("PUT", "/admin/corridors/BR", {
    currency: "BRL",
    min_amount: "1",
    max_amount: "50000",
    enabled: true,
  });
  if (corridor.status !== 200) throw new Error(`corridor: ${corridor.status} ${corridor.text}`);
}

export interface FundedPartner extends Credentials {
  readonly partnerId: string;
}

/** A partner paying out in BRL at 1.5 % + 0.30 USD, credited `balanceUsd`. */
export async function fundedPartner(platform: TestPlatform, balanceUsd: string): Promise<FundedPartner> {
  const partner = await platform.createPartner({
    supported_currencies: ["BRL"],
    fees: { percent: "1.5", fixed_usd: "0.30" },
  });
  const credit = await platform.admin(
    "POST",
    `/admin/partners/${partner.partnerId}/balance/credits`,
    { amount_usd: balanceUsd, reference: "client test funding" },
    { "X-Idempotency-Key": `fund-${partner.partnerId}` },
  );
  if (credit.status !== 201) throw new Error(`credit: ${credit.status} ${credit.text}`);
  return partner;
}

export function clientOf(
  platform: TestPlatform,
  partner: Credentials,
  options: Partial<PayoutsClientOptions> = {},
): PayoutsClient {
  return createPayoutsClient({
    baseUrl: platform.baseUrl,
    clientId: partner.clientId,
    clientSecret: partner.clientSecret,
    ...options,
  });
}

/** The partner's balance as the admin API reads it (a decimal string at full precision). */
export async function balanceOf(platform: TestPlatform, partnerId: string): Promise<string> {
  const answer = await platform.admin("GET", `/admin/partners/${partnerId}/balance`);
  if (answer.status !== 200) throw new Error(`balance: ${answer.status} ${answer.text}`);
  return answer.json.balance_usd;
}

/** A PENDING BR transaction of `client`'s partner, quoted at 54 BRL (10 USD + 0.45 USD fees). */
export async function quotedTransaction(client: PayoutsClient, customerId: string, reference?: string) {
  const lookup = await client.lookupPaymentCode({
    customer_id: customerId,
    ...BR_PIX_DESTINATION,
    ...(reference === undefined ? {} : { partner_transaction_id: reference }),
  });
  await client.getQuotation({ tx_id: lookup.tx_id, amount: 54 });
  return lookup.tx_id;
}
