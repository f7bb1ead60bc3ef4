import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import {
  ACCOUNT_KINDS,
  type AccountKind,
  creditMovement,
  effectOn,
  type Movement,
  type PayoutAmounts,
  payoutMovement,
  payoutTotal,
  refundMovement,
  reversalMovement,
  settlementMovement,
} from "./posting-rules.js";

const amounts = (amountUsd: string, percentageFee: string, fixedFee: string): PayoutAmounts => ({
  amountUsd: new Dec(amountUsd),
  percentageFee: new Dec(percentageFee),
  fixedFee: new Dec(fixedFee),
});

// 100 BRL at 5.1234 per USD with 1.5 % + 0.30: amounts at 18 decimals as pricing stores them.
const quoted = amounts("19.518288636452356638", "0.29277432954678535", "0.3");

const sum = (m: Movement) => m.postings.reduce((acc, p) => acc.plus(p.amount), new Dec(0));

function apply(balances: Map<AccountKind, Dec>, m: Movement): void {
  for (const p of m.postings) balances.set(p.account, (balances.get(p.account) ?? new Dec(0)).plus(p.amount));
}

describe("posting rules", () => {
  it("debits amount_usd + percentage_fee + fixed_fee at full precision", () => {
    expect(payoutTotal(quoted).toFixed()).toBe("20.111062965999141988");
    expect(effectOn(payoutMovement(quoted), "balance").toFixed()).toBe("-20.111062965999141988");
  });

  it.each([
    ["credit", creditMovement(new Dec("1000.000000000000000001"))],
    ["payout", payoutMovement(quoted)],
    ["settlement", settlementMovement(quoted)],
    ["reversal", reversalMovement(quoted)],
    ["refund", refundMovement(quoted)],
  ])("%s movement sums to zero", (_name, movement) => {
    expect(sum(movement).isZero()).toBe(true);
    expect(movement.postings.every((p) => !p.amount.isZero())).toBe(true);
  });

  it("drops zero postings: a payout without fees touches no fee account", () => {
    const free = amounts("10", "0", "0");
    expect(settlementMovement(free).postings.map((p) => p.account)).toEqual(["in_flight", "settled"]);
  });

  it("success then refund returns the partner exactly to the starting balance", () => {
    const balances = new Map<AccountKind, Dec>();
    apply(balances, creditMovement(new Dec("50")));
    for (const m of [payoutMovement(quoted), settlementMovement(quoted), refundMovement(quoted)])
      apply(balances, m);
    expect(balances.get("balance")?.toFixed()).toBe("50");
    for (const kind of ["in_flight", "settled", "fees"] as const)
      expect(balances.get(kind)?.isZero()).toBe(true);
  });

  it("failure reverses the whole debit, fees included", () => {
    const balances = new Map<AccountKind, Dec>();
    apply(balances, creditMovement(new Dec("50")));
    apply(balances, payoutMovement(quoted));
    apply(balances, reversalMovement(quoted));
    expect(balances.get("balance")?.toFixed()).toBe("50");
    expect(balances.get("in_flight")?.isZero()).toBe(true);
  });

  it("after settlement the book splits into settled amount and earned fees", () => {
    const balances = new Map<AccountKind, Dec>();
    apply(balances, creditMovement(new Dec("50")));
    apply(balances, payoutMovement(quoted));
    apply(balances, settlementMovement(quoted));
    expect(balances.get("settled")?.toFixed()).toBe("19.518288636452356638");
    expect(balances.get("fees")?.toFixed()).toBe("0.59277432954678535");
    const total = ACCOUNT_KINDS.reduce((acc, k) => acc.plus(balances.get(k) ?? 0), new Dec(0));
    expect(total.isZero()).toBe(true);
  });

  it.each(["0", "-1"])("refuses a credit of %s", (amount) => {
    expect(() => creditMovement(new Dec(amount))).toThrow(/positive/);
  });
});
