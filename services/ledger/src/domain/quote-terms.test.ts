import { describe, expect, it } from "vitest";
import type { LedgerFailure } from "./ledger-failure.js";
import { isQuoteExpired, type QuoteInput, readQuoteTerms } from "./quote-terms.js";

const input = (over: Partial<QuoteInput> = {}): QuoteInput => ({
  quoteId: "qt_1",
  amount: "100",
  currency: "BRL",
  exchangeRate: "5.1234",
  amountUsd: "19.518288636452356638",
  percentageFee: "0.29277432954678535",
  fixedFee: "0.3",
  fee: "0.59277432954678535",
  totalUsd: "20.111062965999141988",
  expiresAt: new Date("2026-03-01T12:30:00Z"),
  ...over,
});

const failure = (over: Partial<QuoteInput>, currency = "BRL") => {
  try {
    readQuoteTerms(input(over), currency);
    return undefined;
  } catch (error) {
    const f = error as LedgerFailure;
    return `${f.reason} ${f.field}`;
  }
};

describe("readQuoteTerms", () => {
  it("keeps every figure exactly", () => {
    const terms = readQuoteTerms(input(), "BRL");
    expect(terms.amountUsd.toFixed()).toBe("19.518288636452356638");
    expect(terms.percentageFee.toFixed()).toBe("0.29277432954678535");
    expect(terms.fixedFee.toFixed()).toBe("0.3");
  });

  it("accepts a quote without the optional fee and total cross-checks, and empty fees as zero", () => {
    expect(failure({ fee: "", totalUsd: "" })).toBeUndefined();
    expect(
      readQuoteTerms(
        input({ percentageFee: "", fixedFee: "", fee: "", totalUsd: "" }),
        "BRL",
      ).fixedFee.isZero(),
    ).toBe(true);
  });

  it.each([
    [{ currency: "USD" }, "INVALID_FIELD quote.currency"],
    [{ quoteId: "" }, "MISSING_REQUIRED_FIELD quote.quote_id"],
    [{ expiresAt: undefined }, "MISSING_REQUIRED_FIELD quote.expires_at"],
    [{ amount: "0" }, "INVALID_AMOUNT quote.amount"],
    [{ amountUsd: "-1" }, "INVALID_AMOUNT quote.amount_usd"],
    [{ fixedFee: "-0.01" }, "INVALID_AMOUNT quote.fixed_fee"],
    [{ exchangeRate: "1e3" }, "INVALID_FIELD quote.exchange_rate"],
    [{ amountUsd: "1.0000000000000000001" }, "INVALID_FIELD quote.amount_usd"],
    [{ amount: "123456789012345678901" }, "INVALID_FIELD quote.amount"],
    [{ totalUsd: "20.11" }, "INVALID_FIELD quote.total_usd"],
    [{ fee: "0.59" }, "INVALID_FIELD quote.fee"],
  ] as const)("%o → %s", (over, expected) => {
    expect(failure(over)).toBe(expected);
  });

  it("treats a quote expiring exactly now as expired", () => {
    const at = new Date("2026-03-01T12:30:00Z");
    expect(isQuoteExpired({ expiresAt: at }, at)).toBe(true);
    expect(isQuoteExpired({ expiresAt: at }, new Date(at.getTime() - 1))).toBe(false);
  });
});
