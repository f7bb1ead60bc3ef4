import { expect } from "vitest";
import type { ApiResponse, Credentials, TestPlatform } from "../support/test-platform.js";

/** A partner with one app and one registered sender. */
export interface LookupPartner extends Credentials {
  readonly partnerId: string;
  readonly customerId: string;
}

export const SENDER = {
  name_first: "Ana",
  name_last: "Souza",
  country: "BR",
  ic_type: "CPF",
  ic_number: "529.982.247-25",
  phone: "+55 11 98765-4321",
  email: "Ana.Souza@example.com",
} as const;

/** The sender map every transaction of SENDER carries (canonical forms). */
export const SENDER_MAP = {
  name_first: "Ana",
  name_last: "Souza",
  country: "BR",
  ic_type: "CPF",
  ic_number: "52998224725",
  phone: "+5511987654321",
  email: "ana.souza@example.com",
} as const;

export async function createLookupPartner(
  platform: TestPlatform,
  fields: Record<string, unknown> = {},
): Promise<LookupPartner> {
  const partner = await platform.createPartner(fields);
  const customer = await platform.partner(partner, "POST", "/customers", SENDER);
  expect(customer.status, customer.text).toBe(201);
  return { ...partner, customerId: customer.json.customer_id };
}

/** Reference data for pricing: one rate and corridor per currency the tests price in. */
export const TEST_RATES = { BRL: "5.4", NGN: "1500", KES: "129.25", VND: "26300", ARS: "1000" } as const;

export async function putPricingData(platform: TestPlatform): Promise<void> {
  const corridors = [
    ["BR", "BRL", "1", "50000"],
    ["NG", "NGN", "100", "5000000"],
    ["KE", "KES", "10", "250000"],
    ["VN", "VND", "10000", "500000000"],
    ["AR", "ARS", "100", "10000000"],
  ] as const;
  for (const [currency, rate_per_usd] of Object.entries(TEST_RATES)) {
    const res = await platform.admin("PUT", `/admin/fx-rates/${currency}`, { rate_per_usd });
    expect(res.status, res.text).toBe(200);
  }
  for (const [country, currency, min_amount, max_amount] of corridors) {
    const res = await platform.admin("PUT", `/admin/corridors/${country}`, {
      currency,
      min_amount,
      max_amount,
      enabled: true,
    });
    expect(res.status, res.text).toBe(200);
  }
}

export function lookupPaymentCode(
  platform: TestPlatform,
  partner: LookupPartner,
  body: Record<string, unknown>,
  query = "",
): Promise<ApiResponse> {
  return platform.partner(partner, "POST", `/lookupPaymentCode${query}`, {
    customer_id: partner.customerId,
    ...body,
  });
}

export function decodeQr(
  platform: TestPlatform,
  partner: LookupPartner,
  body: Record<string, unknown>,
  query = "",
): Promise<ApiResponse> {
  return platform.partner(partner, "POST", `/decodeQr${query}`, { customer_id: partner.customerId, ...body });
}

/** The error body of a refused request, for one-line expectations. */
export function errorOf(res: ApiResponse): { status: number; code: string; field: string | undefined } {
  return { status: res.status, code: res.json?.code, field: res.json?.field };
}

/** Asserts that `tx_id` names a PENDING transaction of the partner holding the sender, and returns it. */
export async function expectPending(
  platform: TestPlatform,
  partner: LookupPartner,
  txId: unknown,
): Promise<ApiResponse["json"]> {
  expect(txId).toMatch(/^tx_[0-9a-z]+$/);
  const tx = await platform.partner(partner, "GET", `/transactions/${txId}`);
  expect(tx.status, tx.text).toBe(200);
  expect(tx.json.status).toBe("PENDING");
  expect(tx.json.qr_data.sender).toEqual(SENDER_MAP);
  return tx.json;
}

/** How many transactions the partner has (all of them: the tests create few). */
export async function transactionCount(platform: TestPlatform, partner: LookupPartner): Promise<number> {
  const res = await platform.partner(partner, "GET", "/listTransactions?limit=100");
  expect(res.status, res.text).toBe(200);
  return res.json.transactions.length;
}

/** The exact JSON text of one top-level member of a response body, e.g. `"amount":150.00`. */
export function memberText(body: string, key: string): string | undefined {
  return new RegExp(`"${key}":(-?[0-9.]+|"[^"]*"|true|false)`).exec(body)?.[1];
}
