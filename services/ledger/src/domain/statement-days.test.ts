import { createHash } from "node:crypto";
import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { LedgerFailure } from "./ledger-failure.js";
import { localDate, periodOf, summariseDay, validDate, validTimeZone } from "./statement-days.js";
import { statementLines } from "./statement-lines.js";

const hours = (date: string, zone: string) => {
  const p = periodOf(date, zone);
  return (p.end.getTime() - p.start.getTime()) / 3_600_000;
};

describe("days of a time zone", () => {
  it("are 23 hours when clocks spring forward and 25 when they fall back", () => {
    expect(hours("2026-03-08", "America/New_York")).toBe(23);
    expect(hours("2026-11-01", "America/New_York")).toBe(25);
    expect(hours("2026-11-02", "America/New_York")).toBe(24);
    expect(periodOf("2026-11-01", "America/New_York").start.toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(periodOf("2026-11-01", "America/New_York").end.toISOString()).toBe("2026-11-02T05:00:00.000Z");
  });

  it("put one instant on different dates in different zones", () => {
    const at = new Date("2026-03-10T02:30:00Z");
    expect(localDate(at, "America/Sao_Paulo")).toBe("2026-03-09");
    expect(localDate(at, "Africa/Lagos")).toBe("2026-03-10");
  });

  it("refuse unknown zones and impossible dates as INVALID_FIELD naming the field", () => {
    expect(validTimeZone("Africa/Lagos")).toBe("Africa/Lagos");
    for (const zone of ["", "Mars/Olympus", "UTC+25", "x".repeat(65)]) {
      expect(() => validTimeZone(zone)).toThrow(LedgerFailure);
      try {
        validTimeZone(zone);
      } catch (e) {
        expect((e as LedgerFailure).field).toBe("time_zone");
      }
    }
    expect(validDate("2024-02-29")).toBe("2024-02-29");
    for (const date of [
      "2026-02-29",
      "2026-13-01",
      "26-01-01",
      "2026-1-1",
      "1999-12-31",
      "2026-01-01T00:00",
    ]) {
      expect(() => validDate(date, "from"), date).toThrow(/^from /);
    }
  });
});

describe("a day's summary", () => {
  it("folds the lines into totals and a hash of their canonical text", () => {
    const at = new Date("2026-03-10T12:00:00Z");
    const entry = (entryId: bigint, movementKind: string, amount: string, fee?: string) => ({
      xid: 1n,
      entryId,
      movementKind,
      amount: new Dec(amount),
      createdAt: at,
      txId: movementKind === "credit" ? undefined : "tx_1",
      partnerTransactionId: undefined,
      currency: undefined,
      localAmount: undefined,
      exchangeRate: undefined,
      amountUsd: undefined,
      fee: fee === undefined ? undefined : new Dec(fee),
    });
    const lines = statementLines(
      [entry(1n, "credit", "100"), entry(2n, "payout", "-10.45", "0.45")],
      new Dec(5),
    );
    const s = summariseDay(new Dec(5), lines);
    expect(s.openingBalance.toFixed()).toBe("5");
    expect(s.closingBalance.toFixed()).toBe("94.55");
    expect(s.lineCount).toBe(3);
    expect(s.totalDebits.toFixed()).toBe("10.45");
    expect(s.totalCredits.toFixed()).toBe("100");
    const text =
      '["sl_1_0","credit","","","","","","100","2026-03-10T12:00:00.000Z","105"]\n' +
      '["sl_2_0","payout","tx_1","","","","","-10","2026-03-10T12:00:00.000Z","95"]\n' +
      '["sl_2_1","fee","tx_1","","","","","-0.45","2026-03-10T12:00:00.000Z","94.55"]\n';
    expect(s.sha256).toBe(createHash("sha256").update(text).digest("hex"));
    expect(summariseDay(new Dec(7), []).sha256).toBe(createHash("sha256").update("").digest("hex"));
  });
});
