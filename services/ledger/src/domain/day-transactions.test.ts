import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { linesByTransaction, type TransactionEntry } from "./day-transactions.js";

const entry = (over: Partial<TransactionEntry>): TransactionEntry => ({
  xid: 10n,
  entryId: 1n,
  movementKind: "payout",
  amount: new Dec("-10.45"),
  createdAt: new Date("2026-03-01T12:00:00Z"),
  txId: "tx_a",
  partnerTransactionId: "order-a",
  currency: "BRL",
  localAmount: new Dec("54"),
  exchangeRate: new Dec("5.4"),
  amountUsd: new Dec("10"),
  fee: new Dec("0.45"),
  closedDay: undefined,
  ...over,
});

describe("linesByTransaction", () => {
  it("splits each transaction's entries into amount and fee lines and sums them", () => {
    const byTx = linesByTransaction(
      [
        entry({ entryId: 1n }),
        entry({ entryId: 2n, movementKind: "reversal", amount: new Dec("10.45") }),
        entry({
          entryId: 3n,
          txId: "tx_b",
          amount: new Dec("-5.3"),
          amountUsd: new Dec("5"),
          fee: new Dec("0.3"),
        }),
      ],
      "UTC",
      undefined,
    );
    expect(byTx.get("tx_a")?.lines.map((l) => [l.id, l.type, l.amountUsd.toFixed()])).toEqual([
      ["sl_1_0", "payout", "-10"],
      ["sl_1_1", "fee", "-0.45"],
      ["sl_2_0", "reversal", "10"],
      ["sl_2_1", "fee", "0.45"],
    ]);
    expect(byTx.get("tx_a")?.balanceEffect.toFixed()).toBe("0");
    expect(byTx.get("tx_b")?.balanceEffect.toFixed()).toBe("-5.3");
  });

  it("dates a line by the closed day holding it, else by its local day, never before the first open day", () => {
    const at = new Date("2026-03-01T23:30:00Z"); // 2 March in Lagos (UTC+1), 1 March in São Paulo (UTC-3)
    const held = linesByTransaction(
      [entry({ createdAt: at, closedDay: "2026-02-28" })],
      "Africa/Lagos",
      "2026-03-05",
    );
    expect(held.get("tx_a")?.lines.map((l) => l.statementDate)).toEqual(["2026-02-28", "2026-02-28"]);
    const lagos = linesByTransaction([entry({ createdAt: at })], "Africa/Lagos", undefined);
    expect(lagos.get("tx_a")?.lines[0]?.statementDate).toBe("2026-03-02");
    const saoPaulo = linesByTransaction([entry({ createdAt: at })], "America/Sao_Paulo", "2026-03-01");
    expect(saoPaulo.get("tx_a")?.lines[0]?.statementDate).toBe("2026-03-01");
    // Its day closed without it (the writer outlived the grace period): it posts on the first open day.
    const late = linesByTransaction([entry({ createdAt: at })], "America/Sao_Paulo", "2026-03-03");
    expect(late.get("tx_a")?.lines[0]?.statementDate).toBe("2026-03-03");
  });
});
