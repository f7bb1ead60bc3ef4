import { expect } from "vitest";
import type { Credentials, TestPlatform } from "../support/test-platform.js";

/** Rates and corridors the pricing tests rely on; EUR deliberately has no rate. */
export const TEST_RATES = { BRL: "5.4", VND: "26300", KES: "129.25" } as const;

export const TEST_CORRIDORS = [
  { country: "BR", currency: "BRL", min_amount: "1", max_amount: "50000" },
  { country: "VN", currency: "VND", min_amount: "10000", max_amount: "500000000" },
  { country: "KE", currency: "KES", min_amount: "10", max_amount: "250000" },
] as const;

export async function putReferenceData(platform: TestPlatform): Promise<void> {
  for (const [currency, rate_per_usd] of Object.entries(TEST_RATES)) {
    const res = await platform.admin("PUT", `/admin/fx-rates/${currency}`, { rate_per_usd });
    expect(res.status, res.text).toBe(200);
  }
  for (const { country, ...corridor } of TEST_CORRIDORS) {
    const res = await platform.admin("PUT", `/admin/corridors/${country}`, { ...corridor, enabled: true });
    expect(res.status, res.text).toBe(200);
  }
}

/** One more app of a partner, with its own previewQuotations limit. */
export async function createApp(
  platform: TestPlatform,
  partnerId: string,
  previewRateLimitPerMinute: number,
): Promise<Credentials> {
  const res = await platform.admin("POST", `/admin/partners/${partnerId}/apps`, {
    preview_rate_limit_per_minute: previewRateLimitPerMinute,
  });
  expect(res.status, res.text).toBe(201);
  return { clientId: res.json.client_id, clientSecret: res.json.client_secret };
}

/** The quotations of a raw response body, each as its exact JSON text, so `0.50` is not read as `0.5`. */
export function quotationTexts(text: string): string[] {
  const match = /^\{"quotations":\[(.*)\]\}$/.exec(text);
  expect(match, text).not.toBeNull();
  return match![1] === "" ? [] : match![1]!.split(/(?<=\}),(?=\{)/);
}
