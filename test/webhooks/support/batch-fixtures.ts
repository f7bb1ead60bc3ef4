/**
 * A two-item bulk payout to the sandbox's BR PIX key, created, validated and approved through the partner
 * API: what the batch.completed webhook tests start from.
 */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { BR_PIX_DESTINATION, BR_SENDER } from "../../client/support/client-fixtures.js";
import { type Json, sleep } from "./webhook-fixtures.js";

/** The partner API as one partner calls it. */
export type PartnerCall = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; json: Json; text: string }>;

/** Creates a customer and a batch of items `<prefix>-1` and `<prefix>-2`, waits for validation, approves it. */
export async function approvedTwoItemBatch(call: PartnerCall, prefix: string): Promise<string> {
  const customer = await call("POST", "/customers", BR_SENDER);
  expect(customer.status, customer.text).toBe(201);
  const item = (n: number) => ({
    item_ref: `${prefix}-${n}`,
    amount: "54",
    partner_transaction_id: `${prefix}-ptx-${n}`,
    customer_id: customer.json.customer_id,
    ...BR_PIX_DESTINATION,
  });
  const created = await call(
    "POST",
    "/batches",
    { items: [item(1), item(2)] },
    { "X-Idempotency-Key": `batch-${randomBytes(6).toString("hex")}` },
  );
  expect(created.status, created.text).toBe(202);
  const batchId: string = created.json.batch_id;
  const validatedBy = Date.now() + 30_000;
  while ((await call("GET", `/batches/${batchId}`)).json.status === "VALIDATING") {
    if (Date.now() > validatedBy) throw new Error(`batch ${batchId} still VALIDATING after 30 s`);
    await sleep(100);
  }
  const approved = await call("POST", `/batches/${batchId}/approve`);
  expect([approved.status, approved.json.status], approved.text).toEqual([200, "PROCESSING"]);
  return batchId;
}
