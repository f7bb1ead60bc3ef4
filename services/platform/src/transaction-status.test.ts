import { TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { describe, expect, it } from "vitest";
import {
  isTransactionStatusName,
  statusFromName,
  statusNameOf,
  statusToProto,
  statusWireName,
  TRANSACTION_STATUSES,
} from "./transaction-status.js";

describe("transaction statuses", () => {
  it("are the proto enum's values but UNSPECIFIED, in the enum's order, by their wire names", () => {
    expect(TRANSACTION_STATUSES).toEqual([
      "PENDING",
      "PROCESSING",
      "SUCCESS",
      "FAILED",
      "REFUNDED",
      "EXPIRED",
    ]);
  });

  it("map to the enum and back for every status", () => {
    for (const name of TRANSACTION_STATUSES) {
      expect(statusNameOf(statusToProto(name))).toBe(name);
      expect(statusFromName(name)).toBe(statusToProto(name));
    }
    expect(statusToProto("REFUNDED")).toBe(TransactionStatus.REFUNDED);
  });

  it("read only exact wire names: not UNSPECIFIED, another case or other text", () => {
    expect(["PENDING", "pending", "UNSPECIFIED", "DONE", "", "1"].map(statusFromName)).toEqual([
      TransactionStatus.PENDING,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(isTransactionStatusName("constructor")).toBe(false);
  });

  it("name the unset value and undeclared numbers UNSPECIFIED on the wire", () => {
    expect(statusNameOf(TransactionStatus.UNSPECIFIED)).toBeUndefined();
    expect(statusWireName(TransactionStatus.UNSPECIFIED)).toBe("UNSPECIFIED");
    expect(statusWireName(99 as TransactionStatus)).toBe("UNSPECIFIED");
    expect(statusWireName(TransactionStatus.EXPIRED)).toBe("EXPIRED");
  });
});
