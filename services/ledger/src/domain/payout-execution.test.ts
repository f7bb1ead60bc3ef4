import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { LedgerFailure } from "./ledger-failure.js";
import {
  checkIdempotencyKey,
  type ExecutableTx,
  executionRefusal,
  keyVerdict,
  quotingRefusal,
} from "./payout-execution.js";

const NOW = new Date("2026-03-01T12:00:00Z");
const LATER = new Date("2026-03-01T12:30:00Z");
const EARLIER = new Date("2026-03-01T11:59:59.999Z");
const FP = "a".repeat(64);

const tx = (over: Partial<ExecutableTx> = {}): ExecutableTx => ({
  status: "PENDING",
  pendingExpiresAt: new Date("2026-03-02T12:00:00Z"),
  quote: {
    amountUsd: new Dec("10"),
    percentageFee: new Dec("0.15"),
    fixedFee: new Dec("0.3"),
    expiresAt: LATER,
  },
  ...over,
});

const reason = (t: ExecutableTx, balance: string) => executionRefusal(t, new Dec(balance), NOW)?.reason;

describe("quotingRefusal", () => {
  const quotable = (over: Partial<ExecutableTx> = {}) => ({ ...tx(over), currency: "BRL" });

  it("accepts a PENDING transaction within its TTL, with no currency or its own in any case", () => {
    expect(quotingRefusal(quotable(), NOW)).toBeUndefined();
    expect(quotingRefusal(quotable(), NOW, "brl")).toBeUndefined();
    expect(quotingRefusal(quotable({ quote: undefined }), NOW, "BRL")).toBeUndefined();
  });

  it("refuses a transaction that is not PENDING or past its TTL before looking at the currency", () => {
    expect(quotingRefusal(quotable({ status: "PROCESSING" }), NOW, "USD")).toMatchObject({
      reason: "TRANSACTION_NOT_PENDING",
      message: "transaction is PROCESSING, not PENDING",
    });
    expect(quotingRefusal(quotable({ pendingExpiresAt: NOW }), NOW)).toMatchObject({
      reason: "TRANSACTION_NOT_PENDING",
      message: "transaction is expired, not PENDING",
    });
  });

  it("refuses another currency with INVALID_FIELD on currency", () => {
    expect(quotingRefusal(quotable(), NOW, "USD")).toMatchObject({
      reason: "INVALID_FIELD",
      field: "currency",
      message: "currency must be the transaction's currency BRL",
    });
  });
});

describe("executionRefusal", () => {
  it("accepts a PENDING, quoted, funded transaction, including an exactly sufficient balance", () => {
    expect(reason(tx(), "10.45")).toBeUndefined();
    expect(reason(tx(), "1000")).toBeUndefined();
  });

  it("needs the full total at full precision", () => {
    expect(reason(tx(), "10.449999999999999999")).toBe("INSUFFICIENT_FUNDS");
  });

  it.each([
    [
      "not pending beats everything",
      tx({ status: "PROCESSING", quote: undefined }),
      "0",
      "TRANSACTION_NOT_PENDING",
    ],
    ["expired pending is not pending", tx({ pendingExpiresAt: NOW }), "100", "TRANSACTION_NOT_PENDING"],
    ["quote required beats funds", tx({ quote: undefined }), "0", "QUOTE_REQUIRED"],
    [
      "quote expired beats funds",
      tx({ quote: { ...tx().quote!, expiresAt: EARLIER } }),
      "0",
      "QUOTE_EXPIRED",
    ],
    [
      "a quote expiring now is expired",
      tx({ quote: { ...tx().quote!, expiresAt: NOW } }),
      "100",
      "QUOTE_EXPIRED",
    ],
    ["funds last", tx(), "0", "INSUFFICIENT_FUNDS"],
  ])("%s", (_name, t, balance, expected) => {
    expect(reason(t, balance)).toBe(expected);
  });

  it.each(["SUCCESS", "FAILED", "REFUNDED", "EXPIRED"] as const)("refuses a %s transaction", (status) => {
    expect(reason(tx({ status }), "100")).toBe("TRANSACTION_NOT_PENDING");
  });
});

describe("keyVerdict", () => {
  it.each([
    [undefined, "fresh"],
    [{ fingerprint: FP }, "replay"],
    [{ fingerprint: "b".repeat(64) }, "reused"],
  ] as const)("stored %o → %s", (stored, verdict) => {
    expect(keyVerdict(stored, FP)).toBe(verdict);
  });
});

describe("checkIdempotencyKey", () => {
  const codeOf = (key: string, fp = FP) => {
    try {
      checkIdempotencyKey(key, fp);
      return "ok";
    } catch (error) {
      return (error as LedgerFailure).reason;
    }
  };

  it.each([
    ["", "MISSING_IDEMPOTENCY_KEY"],
    ["k", "ok"],
    ["550e8400-e29b-41d4-a716-446655440000", "ok"],
    ["with space ~!", "ok"],
    ["x".repeat(255), "ok"],
    ["x".repeat(256), "INVALID_FIELD"],
    ["tab\tkey", "INVALID_FIELD"],
    ["clé", "INVALID_FIELD"],
  ])("%j → %s", (key, code) => {
    expect(codeOf(key)).toBe(code);
  });

  it("needs a hex SHA-256 fingerprint", () => {
    expect(codeOf("k", "xyz")).toBe("INVALID_FIELD");
    expect(codeOf("k", FP.toUpperCase())).toBe("INVALID_FIELD");
  });

  it("raises LedgerFailure", () => {
    expect(() => checkIdempotencyKey("", FP)).toThrow(LedgerFailure);
  });
});
