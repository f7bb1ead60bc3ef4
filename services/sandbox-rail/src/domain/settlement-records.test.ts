import { describe, expect, it } from "vitest";
import { type AcceptedPayout, applyDiscrepancies, type Discrepancy, recordOf } from "./settlement-records.js";

const at = new Date("2026-03-01T10:00:00Z");
const payout = (txId: string, over: Partial<AcceptedPayout> = {}): AcceptedPayout => ({
  txId,
  providerReference: `sbx_${txId}`,
  amount: "150.5",
  currency: "NGN",
  outcome: "SUCCESS",
  deliveredAt: at,
  acceptedAt: at,
  ...over,
});
const discrepancy = (kind: Discrepancy["kind"], txId: string, amount = ""): Discrepancy => ({
  discrepancyId: `d-${kind}-${txId}`,
  kind,
  txId,
  amount,
  currency: "",
  createdAt: at,
});

describe("sandbox settlement records", () => {
  it("reports PAID, RETURNED, or PENDING until the callback was delivered", () => {
    expect(recordOf(payout("a")).status).toBe("PAID");
    expect(recordOf(payout("b", { outcome: "FAILED" })).status).toBe("RETURNED");
    expect(recordOf(payout("c", { deliveredAt: undefined }))).toMatchObject({
      status: "PENDING",
      settledAt: undefined,
    });
  });

  it("applies each kind of discrepancy to the payout it names", () => {
    const records = ["a", "b", "c", "d"].map((id) => recordOf(payout(id)));
    const out = applyDiscrepancies(records, [
      discrepancy("DROP_RECORD", "a"),
      discrepancy("CHANGE_AMOUNT", "b", "151"),
      discrepancy("DUPLICATE_RECORD", "c"),
      discrepancy("FLIP_STATUS", "d"),
      discrepancy("ADD_UNKNOWN_RECORD", "tx_made_up", "9.99"),
      discrepancy("DROP_RECORD", "not-this-day"),
    ]);
    expect(out.map((r) => [r.txId, r.amount, r.status])).toEqual([
      ["b", "151", "PAID"],
      ["c", "150.5", "PAID"],
      ["d", "150.5", "RETURNED"],
      ["c", "150.5", "PAID"],
      ["tx_made_up", "9.99", "PAID"],
    ]);
    expect(records.map((r) => r.txId)).toEqual(["a", "b", "c", "d"]);
  });
});
