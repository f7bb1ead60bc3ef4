/**
 * Time limits through the gateway: a quote past QUOTE_TTL_MS cannot be executed (a fresh quote can), and
 * a PENDING transaction past PENDING_TTL_MS is expired by the sweeper and can no longer be quoted or
 * executed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { waitFor } from "./support/ledger-harness.js";
import { assertLedgerInvariants } from "./support/ledger-invariants.js";
import {
  balance,
  executePayout,
  fundedPartner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "./support/payout-fixtures.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({
    env: { QUOTE_TTL_MS: "400", PENDING_TTL_MS: "2500", LEDGER_EXPIRY_SWEEP_MS: "100" },
  });
  await setUpCorridor(platform);
});
afterAll(async () => {
  await assertLedgerInvariants(platform.runtime.db);
  await platform.close();
});

describe("time limits", () => {
  it("QUOTE_EXPIRED after QUOTE_TTL_MS; a new quote executes", async () => {
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId);
    await quoted(platform, partner, txId);
    await new Promise((r) => setTimeout(r, 500));
    const expired = await executePayout(platform, partner, txId, "ttl-1");
    expect([expired.status, expired.json.code]).toEqual([409, "QUOTE_EXPIRED"]);
    expect(await balance(platform, partner.partnerId)).toBe("100");
    await quoted(platform, partner, txId);
    const ok = await executePayout(platform, partner, txId, "ttl-2");
    expect(ok.status).toBe(200);
    expect(await balance(platform, partner.partnerId)).toBe("89.55");
  });

  it("expires a PENDING transaction after PENDING_TTL_MS", async () => {
    const partner = await fundedPartner(platform, "100");
    const txId = await pendingTransaction(platform, partner.partnerId);
    const view = await waitFor(
      "expiry",
      async () => {
        const res = await platform.partner(partner, "GET", `/transactions/${txId}`);
        return res.json.status === "EXPIRED" ? res.json : undefined;
      },
      10_000,
    );
    expect(view.status_history.map((c: { to: string }) => c.to)).toEqual(["PENDING", "EXPIRED"]);
    const quote = await platform.partner(partner, "POST", "/getQuotation", { tx_id: txId, amount: 15000 });
    expect([quote.status, quote.json.code]).toEqual([409, "TRANSACTION_NOT_PENDING"]);
    const execute = await executePayout(platform, partner, txId, "ttl-expired");
    expect([execute.status, execute.json.code]).toEqual([409, "TRANSACTION_NOT_PENDING"]);
    const listed = await platform.partner(partner, "GET", "/listTransactions?status=EXPIRED");
    expect(listed.json.transactions.map((t: { tx_id: string }) => t.tx_id)).toEqual([txId]);
  });
});
