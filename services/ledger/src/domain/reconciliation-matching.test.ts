import { Dec } from "@payouts/platform/money/decimal";
import { parseUtcDay } from "@payouts/platform/time/utc-day";
import { describe, expect, it } from "vitest";
import { findBreaks, type LedgerPayout, type RailRecord } from "./reconciliation-matching.js";

const day =
  parseUtcDay("2026-03-02") ??
  (() => {
    throw new Error("bad day");
  })();
const noon = new Date("2026-03-02T12:00:00Z");

const payout = (txId: string, over: Partial<LedgerPayout> = {}): LedgerPayout => ({
  txId,
  amount: new Dec("15000"),
  currency: "NGN",
  status: "SUCCESS",
  providerReference: `sbx_${txId}`,
  railSubmittedAt: noon,
  ...over,
});
const record = (txId: string, over: Partial<RailRecord> = {}): RailRecord => ({
  railReference: `sbx_${txId}`,
  txId,
  amount: "15000",
  currency: "NGN",
  status: "PAID",
  ...over,
});
const run = (railRecords: RailRecord[], ledgerPayouts: LedgerPayout[], previous: string[] = []) =>
  findBreaks({ day, railRecords, ledgerPayouts, previousDayTxIds: new Set(previous) }).map((b) => [
    b.type,
    b.key,
  ]);

describe("reconciliation matching", () => {
  it("finds nothing when every record agrees, amounts compared as decimals", () => {
    expect(
      run(
        [
          record("a", { amount: "15000.00" }),
          record("b", { status: "RETURNED" }),
          record("c", { status: "PENDING" }),
        ],
        [payout("a"), payout("b", { status: "FAILED" }), payout("c", { status: "PROCESSING" })],
      ),
    ).toEqual([]);
    expect(run([record("r", { status: "PAID" })], [payout("r", { status: "REFUNDED" })])).toEqual([]);
  });

  it("types every break and keys it by tx_id, or by rail reference for a record the ledger lacks", () => {
    const breaks = run(
      [
        record("amount", { amount: "15000.01" }),
        record("currency", { currency: "USD" }),
        record("status", { status: "RETURNED" }),
        record("dup"),
        record("dup", { railReference: "sbx_dup_2" }),
        record("tx_unknown", { railReference: "sbx_unknown_1" }),
        record("", { railReference: "sbx_nameless" }),
        record("garbled", { amount: "fifteen" }),
      ],
      [
        payout("amount"),
        payout("currency"),
        payout("status"),
        payout("dup"),
        payout("garbled"),
        payout("gone"),
      ],
    );
    expect(breaks).toEqual([
      ["missing_at_rail", "gone"],
      ["missing_in_ledger", "sbx_nameless"],
      ["missing_in_ledger", "sbx_unknown_1"],
      ["amount_mismatch", "amount"],
      ["amount_mismatch", "currency"],
      ["amount_mismatch", "garbled"],
      ["status_mismatch", "status"],
      ["duplicate_at_rail", "dup"],
    ]);
  });

  it("reports a duplicate that also disagrees once per type", () => {
    expect(
      run([record("d"), record("d", { railReference: "x", amount: "1", status: "PENDING" })], [payout("d")]),
    ).toEqual([
      ["amount_mismatch", "d"],
      ["status_mismatch", "d"],
      ["duplicate_at_rail", "d"],
    ]);
  });

  it("matches across midnight in the one direction it can happen", () => {
    const lateNote = payout("late", { railSubmittedAt: new Date("2026-03-02T00:00:00.050Z") });
    // Accepted by the rail on the 1st, noted by the ledger on the 2nd: the 2nd's run finds it in the 1st's records.
    expect(run([], [lateNote], ["late"])).toEqual([]);
    // The 1st's run: its record matches the ledger payout noted the next day.
    expect(run([record("late")], [lateNote])).toEqual([]);
    // A payout noted on another day is no break of this one; one not yet noted is neither.
    expect(run([], [payout("other", { railSubmittedAt: new Date("2026-03-03T00:00:00Z") })])).toEqual([]);
    expect(run([], [payout("unnoted", { railSubmittedAt: undefined })])).toEqual([]);
  });
});
