import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { CamtStatementAmounts, camtAmountText, StatementMismatchError } from "./camt-amounts.js";
import { camtRate, xmlText } from "./statement-camt053.js";
import type { StatementSummary } from "./statement-document.js";

function day(opening: string, lines: string[]): { summary: StatementSummary; lines: string[] } {
  const sum = (sign: 1 | -1) =>
    lines
      .map((l) => new Dec(l))
      .filter((d) => (sign === 1 ? !d.isNegative() : d.isNegative()))
      .reduce((a, b) => a.plus(b.abs()), new Dec(0));
  const closing = new Dec(opening).plus(sum(1)).minus(sum(-1));
  return {
    lines,
    summary: {
      statement_id: "st_1",
      partner_id: "p",
      date: "2026-11-20",
      time_zone: "UTC",
      period_start: "2026-11-20T00:00:00Z",
      period_end: "2026-11-21T00:00:00Z",
      status: "closed",
      revision: 0,
      restates: null,
      currency: "USD",
      opening_balance_usd: opening,
      closing_balance_usd: closing.toFixed(),
      line_count: lines.length,
      total_debits_usd: sum(-1).toFixed(),
      total_credits_usd: sum(1).toFixed(),
      sha256: "0".repeat(64),
    },
  };
}

/** The rendered entries, signed, after checking the day adds up exactly on the rendered figures. */
function rendered(opening: string, lines: string[]): string[] {
  const { summary } = day(opening, lines);
  const amounts = new CamtStatementAmounts(summary);
  const entries = lines.map((l) => amounts.entry(l));
  amounts.finish();
  const signed = entries.map((e) => (e.indicator === "DBIT" ? new Dec(e.amount).neg() : new Dec(e.amount)));
  const credits = signed.filter((d) => !d.isNegative()).reduce((a, b) => a.plus(b), new Dec(0));
  const debits = signed.filter((d) => d.isNegative()).reduce((a, b) => a.plus(b.abs()), new Dec(0));
  expect(credits.eq(amounts.totalCredits)).toBe(true);
  expect(debits.eq(amounts.totalDebits)).toBe(true);
  expect(amounts.opening.plus(credits).minus(debits).eq(amounts.closing)).toBe(true);
  return signed.map((d) => d.toFixed());
}

describe("camt.053 amounts", () => {
  it("keeps amounts of 5 decimals or fewer exact", () => {
    expect(rendered("100", ["-12.5", "0.00001", "3"])).toEqual(["-12.5", "0.00001", "3"]);
  });

  it("carries the rounding of 18-decimal amounts so the entries add up to the rounded balances", () => {
    expect(
      rendered("0", ["-0.333333333333333333", "-0.333333333333333333", "-0.333333333333333334"]),
    ).toEqual(["-0.33333", "-0.33334", "-0.33333"]);
  });

  it("nudges one side's total when rounding each total alone would break opening + credits − debits = closing", () => {
    // 0.000003 + 0.000003 − 0.000001 = 0.000005: the closing rounds to 0.00001 while both totals round to 0,
    // so the credits carry the difference (the debits would turn negative).
    expect(rendered("0.000003", ["0.000003", "-0.000001"])).toEqual(["0.00001", "0"]);
    // 0.000006 + 0.000002 − 0.000004 = 0.000004: the opening rounds to 0.00001, the closing to 0: the debits.
    expect(rendered("0.000006", ["0.000002", "-0.000004"])).toEqual(["0", "-0.00001"]);
  });

  it("never turns a line's sign, and keeps each entry within 0.00003 of its exact amount", () => {
    const exact = ["-0.000001", "0.000001", "-0.000001", "0.000009", "-0.000004", "7.123456789"];
    const entries = rendered("0.000004999999999999", exact);
    entries.forEach((entry, i) => {
      const line = new Dec(exact[i] ?? "0");
      if (!new Dec(entry).isZero()) expect(new Dec(entry).isNegative()).toBe(line.isNegative());
      expect(new Dec(entry).minus(line).abs().lte("0.00003")).toBe(true);
    });
  });

  it("refuses lines that contradict the summary, and amounts too large for 18 digits", () => {
    const { summary } = day("0", ["5"]);
    const amounts = new CamtStatementAmounts(summary);
    amounts.entry("4");
    expect(() => amounts.finish()).toThrow(StatementMismatchError);
    expect(() => new CamtStatementAmounts({ ...summary, closing_balance_usd: "6" })).toThrow(
      StatementMismatchError,
    );
    expect(camtAmountText(new Dec("9999999999999.99999"))).toBe("9999999999999.99999");
    expect(() => camtAmountText(new Dec("10000000000000"))).toThrow(RangeError);
  });

  it("writes a rate in at most 11 digits, 10 after the point, and drops one that cannot fit", () => {
    expect(camtRate("1460")).toBe("1460");
    expect(camtRate("0.231428571428571429")).toBe("0.2314285714");
    expect(camtRate("25123.123456789012345678")).toBe("25123.123457");
    expect(camtRate("123456789012")).toBeUndefined();
  });

  it("replaces characters XML 1.0 cannot carry", () => {
    expect(xmlText("a\u0001b\tc\u{1F600}\uFFFF")).toBe("a\uFFFDb\tc\u{1F600}\uFFFD");
  });
});
