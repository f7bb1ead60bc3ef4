/**
 * The client's bulk payout methods against a started platform (real PostgreSQL, every service, the real
 * gateway): create, upload (streamed and whole), wait for validation, the item iterator, approval,
 * cancellation, the results file, and the typed refusals with their facts.
 */
import { type PayoutsClient, PayoutsError } from "@payouts/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  BR_PIX_DESTINATION,
  BR_SENDER,
  clientOf,
  type FundedPartner,
  fundedPartner,
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

async function failureOf(call: Promise<unknown>): Promise<PayoutsError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PayoutsError);
  return error as PayoutsError;
}

/** A CSV file of `rows` rows, produced as a stream as it is read. */
function csvStream(rows: number, customerId: string, tag: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let n = 0;
  return new ReadableStream({
    pull(controller) {
      if (n === 0) {
        controller.enqueue(
          encoder.encode(
            "item_ref,amount,partner_transaction_id,customer_id,country_code,payment_method,payment_destination,payment_destination_code\r\n",
          ),
        );
      }
      const lines: string[] = [];
      for (let i = 0; i < 500 && n < rows; i++) {
        n++;
        lines.push(`${tag}-${n},${10 + n},${tag}-ptx-${n},${customerId},BR,payment_key,52998224725,PIX\r\n`);
      }
      if (lines.length > 0) controller.enqueue(encoder.encode(lines.join("")));
      if (n >= rows) controller.close();
    },
  });
}

describe("bulk payouts through the client", () => {
  let partner: FundedPartner;
  let client: PayoutsClient;
  let customerId: string;

  beforeAll(async () => {
    partner = await fundedPartner(platform, "1000");
    client = clientOf(platform, partner);
    customerId = (await client.createCustomer(BR_SENDER)).customer_id;
  });

  const item = (n: number, extra: Record<string, unknown> = {}) => ({
    item_ref: `sdk-${n}`,
    amount: "25",
    partner_transaction_id: `sdk-ptx-${n}`,
    customer_id: customerId,
    ...BR_PIX_DESTINATION,
    ...extra,
  });

  it("refuses a bad item and a file of 10,001 rows with typed errors", async () => {
    const bad = await failureOf(client.createBatch({ items: [item(1, { amount: "-1" })] }));
    expect([bad.status, bad.code, bad.field]).toEqual([400, "INVALID_AMOUNT", "items[0].amount"]);
    const big = await failureOf(client.uploadBatchFile(csvStream(10_001, customerId, "big"), "csv"));
    expect([big.status, big.code]).toEqual([413, "BATCH_TOO_LARGE"]);
  });

  it("creates, waits for validation, iterates the items, approves and downloads the results", async () => {
    const created = await client.createBatch({ items: [item(1), item(2), item(3)] });
    expect(created.replayed).toBe(false);
    expect(created.batch.items_received).toBe(3);
    const again = await client.createBatch(
      { items: [item(1), item(2), item(3)] },
      { idempotencyKey: created.idempotencyKey },
    );
    expect(again).toEqual({ ...created, replayed: true });

    const validated = await client.waitForValidation(created.batch.batch_id, { intervalMs: 200 });
    expect(validated.status).toBe("VALIDATED");
    const refs: string[] = [];
    for await (const entry of client.batchItems(created.batch.batch_id, { limit: 2 }))
      refs.push(entry.item_ref);
    expect(refs).toEqual(["sdk-1", "sdk-2", "sdk-3"]);

    const approved = await client.approveBatch(created.batch.batch_id);
    expect(approved.status).toBe("PROCESSING");
    expect(approved.approvals.map((a) => a.approver_id)).toEqual([partner.clientId]);

    const stream = await client.downloadResults(created.batch.batch_id);
    const text = await new Response(stream).text();
    expect(text.split("\r\n")[0]).toMatch(/^row_number,item_ref,status,/);
    expect(text.trimEnd().split("\r\n")).toHaveLength(4);
  });

  it("uploads a file as a stream, names the first batch of a duplicate, and cancels", async () => {
    const file = await new Response(csvStream(20, customerId, "up")).text();
    const first = await client.uploadBatchFile(csvStream(20, customerId, "up"), "csv");
    expect(first.batch).toMatchObject({ items_received: 20, source: "csv" });
    const duplicate = await failureOf(client.uploadBatchFile(file, "csv"));
    expect([duplicate.status, duplicate.code, duplicate.batch_id]).toEqual([
      409,
      "BATCH_DUPLICATE",
      first.batch.batch_id,
    ]);
    const tooLong = await failureOf(client.cancelBatch(first.batch.batch_id, { reason: "x".repeat(201) }));
    expect([tooLong.status, tooLong.code, tooLong.field]).toEqual([400, "INVALID_FIELD", "reason"]);
    const cancelled = await client.cancelBatch(first.batch.batch_id, { reason: "uploaded twice" });
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.cancel_reason).toBe("cancelled by the partner: uploaded twice");
    const page = await client.listBatches({ status: "CANCELLED" });
    expect(page.batches.map((b) => b.batch_id)).toContain(first.batch.batch_id);
  });

  it("answers INSUFFICIENT_FUNDS with the shortfall and moves nothing", async () => {
    const poor = await fundedPartner(platform, "0.01");
    const poorClient = clientOf(platform, poor);
    const poorCustomer = (await poorClient.createCustomer(BR_SENDER)).customer_id;
    const created = await poorClient.createBatch({
      items: [{ ...item(1), customer_id: poorCustomer }],
    });
    await poorClient.waitForValidation(created.batch.batch_id, { intervalMs: 200 });
    const refused = await failureOf(poorClient.approveBatch(created.batch.batch_id));
    expect([refused.status, refused.code]).toEqual([409, "INSUFFICIENT_FUNDS"]);
    expect(Number(refused.shortfall_usd)).toBeGreaterThan(0);
    expect((await poorClient.getBatch(created.batch.batch_id)).status).toBe("VALIDATED");
  });
});
