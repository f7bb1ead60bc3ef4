/**
 * Attack: pay an item of a bulk payout batch without its approvals — the maker of a batch that needs a
 * second approver finds the item's PENDING transaction in its own transaction list and executes it
 * directly (`POST /executePayout`), or re-prices it first (`POST /getQuotation`), skipping maker-checker and
 * the batch's reservation.
 *
 * On the whole platform (real lookup, pricing, ledger, PostgreSQL): both calls are refused with
 * TRANSACTION_NOT_PENDING, the transaction stays PENDING with its batch's quote and the balance is untouched;
 * only the batch's funding pays it.
 */

import { create } from "@bufbuild/protobuf";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { BatchItemInputSchema, BatchService, BatchStatus } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../ledger/support/ledger-harness.js";
import { createLookupPartner, putPricingData } from "../lookup/lookup-fixtures.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { BATCH_WORK_INTERVAL_MS: "100" } });
  await putPricingData(platform);
}, 60_000);
afterAll(() => platform?.close());

describe("an unapproved batch item paid directly", () => {
  it("is refused, and neither the balance nor the transaction moves", async () => {
    const partner = await createLookupPartner(platform, { supported_currencies: ["USD", "BRL"] });
    const credit = await platform.admin(
      "POST",
      `/admin/partners/${partner.partnerId}/balance/credits`,
      { amount_usd: "1000.00", reference: "attack" },
      { "X-Idempotency-Key": `attack-${partner.partnerId}` },
    );
    expect(credit.status, credit.text).toBe(201);
    const ledger = platform.runtime.modules.find((m) => m.name === "ledger");
    if (!ledger) throw new Error("no ledger module");
    const batches = createClient(
      BatchService,
      createRouterTransport((router) => ledger.routes(router)),
    );
    const { batch } = await batches.createBatch({
      partnerId: partner.partnerId,
      requiredApprovals: 2,
      items: [
        create(BatchItemInputSchema, {
          itemRef: "victim",
          amount: "100",
          destination: {
            customerId: partner.customerId,
            countryCode: "BR",
            paymentMethod: "payment_key",
            paymentDestination: "52998224725",
            paymentDestinationCode: "PIX",
          },
        }),
      ],
    });
    const batchId = batch?.batchId ?? "";
    await waitFor("batch validated", async () => {
      const { batch: b } = await batches.getBatch({ partnerId: partner.partnerId, batchId });
      return b?.status === BatchStatus.VALIDATED ? b : undefined;
    });
    const { items } = await batches.listBatchItems({ partnerId: partner.partnerId, batchId });
    const txId = items[0]?.txId ?? "";
    // The maker finds the transaction among its own.
    const listed = await platform.partner(partner, "GET", "/listTransactions?limit=100");
    expect(listed.json.transactions.map((t: { tx_id: string }) => t.tx_id)).toContain(txId);

    const quoted = await platform.partner(partner, "POST", "/getQuotation", { tx_id: txId, amount: 1 });
    expect(quoted.status, quoted.text).toBe(409);
    expect(quoted.json.code).toBe("TRANSACTION_NOT_PENDING");
    const paid = await platform.partner(
      partner,
      "POST",
      "/executePayout",
      { tx_id: txId },
      { "X-Idempotency-Key": "skip-the-checker" },
    );
    expect(paid.status, paid.text).toBe(409);
    expect(paid.json.code).toBe("TRANSACTION_NOT_PENDING");

    const balance = await platform.partner(partner, "GET", "/balance");
    expect(balance.json.balance_usd).toBe(1000);
    const tx = await platform.partner(partner, "GET", `/transactions/${txId}`);
    expect(tx.json.status).toBe("PENDING");
    // Still priced for 100 BRL as validated: the re-pricing for 1 BRL never applied.
    expect(Number(tx.json.amount)).toBe(100);
  });
});
