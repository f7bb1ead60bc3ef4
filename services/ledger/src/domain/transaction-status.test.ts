import { TRANSACTION_STATUSES as TX_STATUSES } from "@payouts/platform/transaction-status";
import { describe, expect, it } from "vitest";
import { canTransition, eventTypeFor, isTerminal, isTxStatus, type TxStatus } from "./transaction-status.js";

const ALLOWED: ReadonlyArray<readonly [TxStatus, TxStatus]> = [
  ["PENDING", "PROCESSING"],
  ["PENDING", "EXPIRED"],
  ["PROCESSING", "SUCCESS"],
  ["PROCESSING", "FAILED"],
  ["SUCCESS", "REFUNDED"],
];

describe("transaction state machine", () => {
  it("allows exactly the documented moves", () => {
    for (const from of TX_STATUSES) {
      for (const to of TX_STATUSES) {
        const expected = ALLOWED.some(([f, t]) => f === from && t === to);
        expect(canTransition(from, to), `${from} -> ${to}`).toBe(expected);
      }
    }
  });

  it.each([
    ["FAILED", true],
    ["REFUNDED", true],
    ["EXPIRED", true],
    ["PENDING", false],
    ["PROCESSING", false],
    ["SUCCESS", false],
  ] as const)("%s terminal: %s", (status, terminal) => {
    expect(isTerminal(status)).toBe(terminal);
  });

  it.each([
    ["PENDING", "transaction.created"],
    ["PROCESSING", "transaction.processing"],
    ["SUCCESS", "transaction.success"],
    ["FAILED", "transaction.failed"],
    ["REFUNDED", "transaction.refunded"],
    ["EXPIRED", "transaction.expired"],
  ] as const)("arriving in %s emits %s", (status, type) => {
    expect(eventTypeFor(status)).toBe(type);
  });

  it("recognises status names exactly", () => {
    expect(["PENDING", "pending", "DONE", ""].map(isTxStatus)).toEqual([true, false, false, false]);
  });
});
