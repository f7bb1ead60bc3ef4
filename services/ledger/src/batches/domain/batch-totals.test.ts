import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { batchPayoutMovement, releaseMovement, reserveMovement } from "../../domain/posting-rules.js";
import { checkItemInputs, MAX_ITEMS_PER_REQUEST } from "./batch-input.js";
import { shortfall, sumTotals } from "./batch-totals.js";

describe("batch totals", () => {
  it("sum exactly in decimals, where binary floating point would not", () => {
    const totals = ["0.1", "0.2", "1.000000000000000001"].map((t) => new Dec(t));
    expect(sumTotals(totals).toFixed()).toBe("1.300000000000000001");
    expect(sumTotals([]).toFixed()).toBe("0");
  });

  it("give the exact shortfall, zero when the balance suffices", () => {
    expect(shortfall(new Dec("100.25"), new Dec("100.250000000000000001")).toFixed()).toBe(
      "0.000000000000000001",
    );
    expect(shortfall(new Dec("100"), new Dec("99.99")).toFixed()).toBe("0");
    expect(shortfall(new Dec("100"), new Dec("100")).toFixed()).toBe("0");
  });
});

describe("batch movements", () => {
  it("reserve moves balance to reservation, an item pays from the reservation, release returns it", () => {
    expect(reserveMovement(new Dec("10.5")).postings.map((p) => [p.account, p.amount.toFixed()])).toEqual([
      ["balance", "-10.5"],
      ["reservation", "10.5"],
    ]);
    const item = batchPayoutMovement({
      amountUsd: new Dec("10"),
      percentageFee: new Dec("0.1"),
      fixedFee: new Dec("0.4"),
    });
    expect(item.postings.map((p) => [p.account, p.amount.toFixed()])).toEqual([
      ["reservation", "-10.5"],
      ["in_flight", "10.5"],
    ]);
    expect(releaseMovement(new Dec("0.01")).postings.map((p) => p.account)).toEqual([
      "reservation",
      "balance",
    ]);
    expect(() => reserveMovement(new Dec(0))).toThrow();
  });
});

describe("checkItemInputs", () => {
  const item = (itemRef: string) => ({ itemRef, amount: "10", hasDestination: true });

  it("refuses more than 1,000 items per request and 10,000 per batch", () => {
    const many = Array.from({ length: MAX_ITEMS_PER_REQUEST + 1 }, (_, i) => item(`r${i}`));
    expect(() => checkItemInputs(many)).toThrow(expect.objectContaining({ reason: "BATCH_TOO_LARGE" }));
    expect(() => checkItemInputs([item("a")], 10_000)).toThrow(
      expect.objectContaining({ reason: "BATCH_TOO_LARGE" }),
    );
    expect(() => checkItemInputs([item("a")], 9_999)).not.toThrow();
  });

  it("names the field of a duplicate ref, a missing ref, destination or amount", () => {
    expect(() => checkItemInputs([item("a"), item("a")])).toThrow(
      expect.objectContaining({ reason: "DUPLICATE_ITEM_REF", field: "items[1].item_ref" }),
    );
    expect(() => checkItemInputs([item("")])).toThrow(
      expect.objectContaining({ reason: "MISSING_REQUIRED_FIELD", field: "items[0].item_ref" }),
    );
    expect(() => checkItemInputs([{ ...item("a"), hasDestination: false }])).toThrow(
      expect.objectContaining({ field: "items[0].destination" }),
    );
    expect(() => checkItemInputs([{ ...item("a"), amount: "" }])).toThrow(
      expect.objectContaining({ field: "items[0].amount" }),
    );
    expect(() => checkItemInputs([item("x".repeat(65))])).toThrow(
      expect.objectContaining({ reason: "INVALID_FIELD", field: "items[0].item_ref" }),
    );
  });
});
