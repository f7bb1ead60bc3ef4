import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { LedgerFailure } from "./ledger-failure.js";
import {
  type BalanceEntry,
  decodeFeedCursor,
  encodeFeedCursor,
  feedPageSize,
  isAfter,
  statementLines,
} from "./statement-lines.js";

const entry = (over: Partial<BalanceEntry>): BalanceEntry => ({
  xid: 10n,
  entryId: 1n,
  movementKind: "credit",
  amount: new Dec("100"),
  createdAt: new Date(0),
  txId: undefined,
  partnerTransactionId: undefined,
  currency: undefined,
  localAmount: undefined,
  exchangeRate: undefined,
  amountUsd: undefined,
  fee: undefined,
  ...over,
});

const payoutRelated = (kind: string, amount: string, entryId: bigint) =>
  entry({
    movementKind: kind,
    amount: new Dec(amount),
    entryId,
    txId: "tx_1",
    partnerTransactionId: "order-1",
    currency: "NGN",
    localAmount: new Dec("15000"),
    exchangeRate: new Dec("1500"),
    amountUsd: new Dec("10"),
    fee: new Dec("0.450000000000000001"),
  });

describe("statementLines", () => {
  it("splits payout-related entries into amount and fee lines that sum to the entry, chaining the balance", () => {
    const lines = statementLines(
      [
        entry({}),
        payoutRelated("payout", "-10.450000000000000001", 2n),
        payoutRelated("refund", "10.450000000000000001", 3n),
      ],
      new Dec("5"),
    );
    expect(lines.map((l) => [l.id, l.type, l.amountUsd.toFixed(), l.balanceAfter.toFixed()])).toEqual([
      ["sl_1_0", "credit", "100", "105"],
      ["sl_2_0", "payout", "-10", "95"],
      ["sl_2_1", "fee", "-0.450000000000000001", "94.549999999999999999"],
      ["sl_3_0", "refund", "10", "104.549999999999999999"],
      ["sl_3_1", "fee", "0.450000000000000001", "105"],
    ]);
    expect(lines[0]?.currency).toBeUndefined();
    expect(lines[1]).toMatchObject({ currency: "NGN", txId: "tx_1", partnerTransactionId: "order-1" });
    expect(lines[2]?.currency).toBeUndefined();
  });

  it("gives a payout without fee one line", () => {
    const lines = statementLines([{ ...payoutRelated("payout", "-10", 2n), fee: new Dec(0) }], new Dec(10));
    expect(lines.map((l) => l.type)).toEqual(["payout"]);
  });
});

describe("feed cursors", () => {
  it("round-trip and order by (xid, entry, part)", () => {
    const p = { xid: 2n ** 64n - 1n, entryId: 7n, part: 1 as const };
    expect(decodeFeedCursor(encodeFeedCursor(p))).toEqual(p);
    expect(isAfter({ xid: 2n, entryId: 1n, part: 0 }, { xid: 1n, entryId: 9n, part: 1 })).toBe(true);
    expect(isAfter({ xid: 1n, entryId: 9n, part: 1 }, { xid: 1n, entryId: 9n, part: 0 })).toBe(true);
    expect(isAfter({ xid: 1n, entryId: 9n, part: 0 }, { xid: 1n, entryId: 9n, part: 0 })).toBe(false);
  });

  it("refuse anything else as INVALID_FIELD on `after`", () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const bad of [
      "",
      "x",
      b64(["1", "2"]),
      b64(["1", "2", 2]),
      b64(["01", "2", 0]),
      b64([1, "2", 0]),
      b64(["1", (2n ** 63n).toString(), 0]),
      b64([(2n ** 64n).toString(), "1", 0]),
    ]) {
      let caught: unknown;
      try {
        decodeFeedCursor(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught, bad).toBeInstanceOf(LedgerFailure);
      expect((caught as LedgerFailure).field, bad).toBe("after");
    }
  });

  it("page sizes: 0 is 100, 1–1000 taken, others refused", () => {
    expect(feedPageSize(0)).toBe(100);
    expect(feedPageSize(1000)).toBe(1000);
    expect(() => feedPageSize(1001)).toThrow(LedgerFailure);
    expect(() => feedPageSize(-1)).toThrow(LedgerFailure);
  });
});

describe("batch funding lines", () => {
  it("shows a batch's reservation as one payout line and its release as a reversal, without fee lines", () => {
    const lines = statementLines(
      [
        entry({ movementKind: "reserve", amount: new Dec("-30.7"), entryId: 1n }),
        entry({ movementKind: "release", amount: new Dec("20.2"), entryId: 2n }),
      ],
      new Dec("100"),
    );
    expect(lines.map((l) => [l.type, l.amountUsd.toFixed(), l.balanceAfter.toFixed()])).toEqual([
      ["payout", "-30.7", "69.3"],
      ["reversal", "20.2", "89.5"],
    ]);
  });
});
