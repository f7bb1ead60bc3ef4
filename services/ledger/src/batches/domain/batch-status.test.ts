import { describe, expect, it } from "vitest";
import {
  afterApproval,
  BATCH_STATUSES,
  canMoveBatch,
  countItems,
  isApprovable,
  isEditable,
  isItemFinal,
  itemStatusForTransaction,
  RETRYABLE,
} from "./batch-status.js";

describe("the batch state machine", () => {
  it("funds only from VALIDATED or AWAITING_APPROVAL, and completes only from PROCESSING", () => {
    const toProcessing = BATCH_STATUSES.filter((s) => canMoveBatch(s, "PROCESSING"));
    expect(toProcessing).toEqual(["VALIDATED", "AWAITING_APPROVAL"]);
    expect(BATCH_STATUSES.filter((s) => canMoveBatch(s, "COMPLETED"))).toEqual(["PROCESSING"]);
  });

  it("never leaves COMPLETED, CANCELLED or EXPIRED, and never cancels a funded batch", () => {
    for (const to of BATCH_STATUSES) {
      expect(canMoveBatch("COMPLETED", to)).toBe(false);
      expect(canMoveBatch("CANCELLED", to)).toBe(false);
      expect(canMoveBatch("EXPIRED", to)).toBe(false);
    }
    expect(canMoveBatch("PROCESSING", "CANCELLED")).toBe(false);
  });

  it("is editable exactly before funding, and approvable once validated", () => {
    expect(BATCH_STATUSES.filter(isEditable)).toEqual([
      "DRAFT",
      "VALIDATING",
      "VALIDATED",
      "AWAITING_APPROVAL",
    ]);
    expect(BATCH_STATUSES.filter(isApprovable)).toEqual(["VALIDATED", "AWAITING_APPROVAL"]);
    for (const s of BATCH_STATUSES.filter(isEditable)) {
      if (s !== "DRAFT") expect(canMoveBatch(s, "CANCELLED")).toBe(true);
    }
  });

  it("funds on the approval that reaches the required count", () => {
    expect(afterApproval(1, 1)).toBe("PROCESSING");
    expect(afterApproval(1, 2)).toBe("AWAITING_APPROVAL");
    expect(afterApproval(2, 2)).toBe("PROCESSING");
  });
});

describe("items", () => {
  it("follow their transaction's money-moving statuses only", () => {
    expect(itemStatusForTransaction("PROCESSING")).toBe("PROCESSING");
    expect(itemStatusForTransaction("SUCCESS")).toBe("SUCCESS");
    expect(itemStatusForTransaction("FAILED")).toBe("FAILED");
    expect(itemStatusForTransaction("REFUNDED")).toBe("REFUNDED");
    expect(itemStatusForTransaction("EXPIRED")).toBeUndefined();
    expect(itemStatusForTransaction("PENDING")).toBeUndefined();
  });

  it("are final unless waiting to be paid or in flight", () => {
    expect(isItemFinal("PENDING")).toBe(false);
    expect(isItemFinal("PROCESSING")).toBe(false);
    expect(isItemFinal("VALIDATING")).toBe(false);
    expect(isItemFinal("SUCCESS")).toBe(true);
  });

  it("retry only FAILED and EXCLUDED, never a paid one", () => {
    expect(RETRYABLE).toEqual(["FAILED", "EXCLUDED"]);
    expect(RETRYABLE).not.toContain("SUCCESS");
    expect(RETRYABLE).not.toContain("REFUNDED");
  });

  it("are counted by status", () => {
    const counts = countItems(["PENDING", "PENDING", "INVALID", "SUCCESS"]);
    expect(counts).toMatchObject({ total: 4, PENDING: 2, INVALID: 1, SUCCESS: 1, FAILED: 0 });
  });
});
