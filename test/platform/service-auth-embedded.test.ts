/**
 * Service authentication in the embedded mode: the in-process router transports run the same caller check as the
 * gRPC servers, so the rule holds in both modes. The gateway's own calls (partner, admin, rail callback)
 * carry its per-process credentials and work; a caller without them is refused.
 */
import { Code, createClient } from "@connectrpc/connect";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeOf } from "../support/rpc-callers.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

describe("embedded mode service authentication", () => {
  it("refuses calls without a credential", async () => {
    const ledger = createClient(LedgerService, platform.runtime.transports.ledger!);
    const pricing = createClient(PricingService, platform.runtime.transports.pricing!);
    const rail = createClient(RailService, platform.runtime.transports.rail!);
    const partner = await platform.createPartner();
    const calls = [
      ledger.creditBalance({ partnerId: partner.partnerId, amountUsd: "1000", reference: "x" }),
      ledger.recordRailResult({ txId: "tx_any", outcome: "SUCCESS" }),
      ledger.quoteTransaction({ partnerId: partner.partnerId, txId: "tx_any", amount: "1" }),
      ledger.getTransaction({ partnerId: "", txId: "tx_any" }),
      pricing.putFxRate({ currency: "NGN", ratePerUsd: "1" }),
      rail.settlePayout({ txId: "tx_any", outcome: "SUCCESS" }),
    ];
    expect(await Promise.all(calls.map(codeOf))).toEqual(calls.map(() => Code.Unauthenticated));
    const balance = await platform.admin("GET", `/admin/partners/${partner.partnerId}/balance`);
    expect(balance.json.balance_usd).toMatch(/^0(\.0*)?$/);
  });

  it("the gateway's own identities still work: an admin credit and a partner balance read", async () => {
    const partner = await platform.createPartner();
    const credit = await platform.admin(
      "POST",
      `/admin/partners/${partner.partnerId}/balance/credits`,
      { amount_usd: "12.5", reference: "embedded top-up" },
      { "X-Idempotency-Key": "embedded-top-up" },
    );
    expect(credit.status).toBe(201);
    const read = await platform.partner(partner, "GET", "/balance");
    expect(read.status).toBe(200);
    expect(read.json.balance_usd).toBe(12.5);
  });
});
