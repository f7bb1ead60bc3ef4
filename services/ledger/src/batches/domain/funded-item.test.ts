import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { executionRefusal } from "../../domain/payout-execution.js";
import { fundedItemRefusal } from "./funded-item.js";

const long = new Date("2020-01-01T00:00:00Z");
const quote = {
  amountUsd: new Dec("10"),
  percentageFee: new Dec("0.1"),
  fixedFee: new Dec("0.5"),
  expiresAt: long,
};

describe("a funded item's payout", () => {
  it("goes ahead at its funded quote however long ago the quote and the pending TTL ran out", () => {
    expect(fundedItemRefusal({ status: "PENDING", quote })).toBeUndefined();
  });

  it("is refused only for a transaction that is not PENDING or has no quote", () => {
    expect(fundedItemRefusal({ status: "EXPIRED", quote })).toMatch(/^TRANSACTION_NOT_PENDING/);
    expect(fundedItemRefusal({ status: "PENDING", quote: undefined })).toMatch(/^QUOTE_REQUIRED/);
  });

  it("differs from the single payout, which still answers QUOTE_EXPIRED for the same quote", () => {
    const now = new Date(long.getTime() + 60_000);
    const single = executionRefusal(
      { status: "PENDING", pendingExpiresAt: new Date(now.getTime() + 60_000), quote },
      new Dec("1000"),
      now,
    );
    expect(single?.reason).toBe("QUOTE_EXPIRED");
  });
});
