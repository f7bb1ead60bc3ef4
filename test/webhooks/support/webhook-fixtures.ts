import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { newId } from "@payouts/platform/ids";
import { expect } from "vitest";
import { eventually, type Partner, type WebhookHarness } from "./webhook-harness.js";

/** The root package.json version: what the User-Agent must carry. */
export const APP_VERSION = (
  JSON.parse(
    readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "package.json"), "utf8"),
  ) as { version: string }
).version;

// biome-ignore lint/suspicious/noExplicitAny: tests inspect JSON answers
export type Json = any;

export async function createConfig(harness: WebhookHarness, partner: Partner, body: Record<string, unknown>) {
  const res = await harness.api(partner, "POST", "/webhookConfigs", body);
  expect(res.status, res.text).toBe(201);
  return res.json as Json;
}

export async function deliveriesOf(
  harness: WebhookHarness,
  partner: Partner,
  query: string,
): Promise<Json[]> {
  const res = await harness.api(partner, "GET", `/webhookDeliveries?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.deliveries;
}

/** Waits until the deliveries matching `query` are `count` rows, all in `status`. */
export function settledDeliveries(
  harness: WebhookHarness,
  partner: Partner,
  query: string,
  count: number,
  status = "delivered",
  timeoutMs = 15_000,
): Promise<Json[]> {
  return eventually(async () => {
    const rows = await deliveriesOf(harness, partner, query);
    return rows.length === count && rows.every((row) => row.status === status) ? rows : undefined;
  }, timeoutMs);
}

export const newTxId = () => newId("tx");

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
