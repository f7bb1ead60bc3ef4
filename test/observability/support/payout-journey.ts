/**
 * The journey an operator follows in a trace: lookup → quote → execute → the rail's signed callback
 * (forced by the sandbox settle route) → the webhook a partner receives.
 */
import { expect } from "vitest";
import type { ApiResponse, Credentials } from "../../support/test-platform.js";

export interface PayoutApi {
  admin(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  partner(
    creds: Credentials,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
}

export interface JourneyPartner extends Credentials {
  readonly partnerId: string;
  readonly customerId: string;
}

/** A full NUBAN the logs and spans must never show in full. */
export const ACCOUNT_NUMBER = "0000000018";
export const WEBHOOK_SECRET = "observability-webhook-secret-0123";

function ok(res: ApiResponse, status = 200): ApiResponse {
  expect(res.status, res.text).toBe(status);
  return res;
}

/** NG corridor and rate, a funded partner with a sender and a receiver for transaction.success. */
export async function preparePartner(api: PayoutApi, receiverUrl: string): Promise<JourneyPartner> {
  ok(await api.admin("PUT", "/admin/fx-rates/NGN", { rate_per_usd: "1500" }));
  ok(
    await api.admin("PUT", "/admin/corridors/NG", {
      currency: "NGN",
      min_amount: "100",
      max_amount: "100000000",
      enabled: true,
    }),
  );
  const partner = ok(
    await api.admin("POST", "/admin/partners", {
      name: "Observability partner",
      supported_currencies: ["NGN"],
      fees: { percent: "1.5", fixed_usd: "0.30" },
    }),
    201,
  ).json;
  const app = ok(await api.admin("POST", `/admin/partners/${partner.partner_id}/apps`, {}), 201).json;
  const creds = { clientId: app.client_id as string, clientSecret: app.client_secret as string };
  ok(
    await api.admin(
      "POST",
      `/admin/partners/${partner.partner_id}/balance/credits`,
      { amount_usd: "100", reference: "observability funding" },
      { "X-Idempotency-Key": `fund-${partner.partner_id}` },
    ),
    201,
  );
  const customer = ok(
    await api.partner(creds, "POST", "/customers", { name_first: "Ada", name_last: "Obi", country: "NG" }),
    201,
  ).json;
  ok(
    await api.partner(creds, "POST", "/webhookConfigs", {
      url: `${receiverUrl}/partner`,
      secret: WEBHOOK_SECRET,
      events: ["transaction.success"],
    }),
    201,
  );
  return { ...creds, partnerId: partner.partner_id, customerId: customer.customer_id };
}

export async function lookup(api: PayoutApi, partner: JourneyPartner): Promise<string> {
  const res = ok(
    await api.partner(partner, "POST", "/lookupPaymentCode", {
      customer_id: partner.customerId,
      country_code: "NG",
      payment_method: "bank_transfer",
      payment_destination: ACCOUNT_NUMBER,
      payment_destination_code: "058",
    }),
  );
  return res.json.tx_id as string;
}

/** Quote, execute and settle `txId`; the rail's callback makes it SUCCESS. */
export async function payOut(api: PayoutApi, partner: JourneyPartner, txId: string): Promise<void> {
  ok(await api.partner(partner, "POST", "/getQuotation", { tx_id: txId, amount: 15000 }));
  ok(
    await api.partner(
      partner,
      "POST",
      "/executePayout",
      { tx_id: txId },
      { "X-Idempotency-Key": `obs-${txId}` },
    ),
  );
  ok(await api.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, { outcome: "SUCCESS" }));
}
