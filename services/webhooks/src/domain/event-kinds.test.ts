import { describe, expect, it } from "vitest";
import {
  deliveryUrl,
  isNotifiedEventType,
  matchesFilter,
  notificationStatus,
  receiverPath,
  validateEventFilter,
} from "./event-kinds.js";

describe("receiverPath and notificationStatus", () => {
  it.each([
    ["transaction.success", "/webhooks/transactions/success", "SUCCESS"],
    ["transaction.refunded", "/webhooks/transactions/refunded", "REFUNDED"],
    ["transaction.failed", "/webhooks/transactions/failed", "FAILED"],
  ] as const)("%s goes to %s with status %s", (eventType, path, status) => {
    expect(receiverPath(eventType)).toBe(path);
    expect(notificationStatus(eventType)).toBe(status);
  });

  it("appends the path to a normalised base URL", () => {
    expect(deliveryUrl("https://partner.example/hooks", "transaction.refunded")).toBe(
      "https://partner.example/hooks/webhooks/transactions/refunded",
    );
  });
});

describe("isNotifiedEventType", () => {
  it.each([
    ["transaction.success", true],
    ["transaction.processing", false],
    ["transaction.expired", false],
    ["Transaction.Success", false],
    ["*", false],
    ["toString", false],
    ["", false],
  ])("%j → %s", (eventType, expected) => {
    expect(isNotifiedEventType(eventType)).toBe(expected);
  });
});

describe("statement.closed", () => {
  it("goes to /webhooks/statements/closed", () => {
    expect(receiverPath("statement.closed")).toBe("/webhooks/statements/closed");
  });
});

describe("batch.completed", () => {
  it("goes to /webhooks/batches/completed", () => {
    expect(receiverPath("batch.completed")).toBe("/webhooks/batches/completed");
    expect(isNotifiedEventType("batch.completed")).toBe(true);
  });
});

describe("matchesFilter", () => {
  it.each([
    [["*"], "transaction.success", true],
    [["*"], "transaction.failed", true],
    [["*"], "transaction.processing", false],
    [["transaction.success"], "transaction.success", true],
    [["transaction.success"], "transaction.refunded", false],
    [["transaction.success", "transaction.refunded"], "transaction.refunded", true],
    [["transaction.failed"], "transaction.success", false],
    [[], "transaction.success", false],
    [["transaction.processing"], "transaction.processing", false],
    [["*"], "statement.closed", true],
    [["statement.closed"], "statement.closed", true],
    [["transaction.success"], "statement.closed", false],
    [["statement.closed"], "transaction.success", false],
    [["*"], "batch.completed", true],
    [["batch.completed"], "batch.completed", true],
    [["statement.closed"], "batch.completed", false],
    [["batch.completed"], "transaction.success", false],
  ])("filter %j, event %s → %s", (filter, eventType, expected) => {
    expect(matchesFilter(filter, eventType)).toBe(expected);
  });
});

describe("validateEventFilter", () => {
  it.each([
    [["transaction.success"], ["transaction.success"]],
    [
      ["transaction.failed", "transaction.success"],
      ["transaction.success", "transaction.failed"],
    ],
    [["transaction.refunded", "transaction.refunded"], ["transaction.refunded"]],
    [["*"], ["*"]],
    [["transaction.success", "*"], ["*"]],
    [
      ["batch.completed", "transaction.success"],
      ["transaction.success", "batch.completed"],
    ],
  ])("accepts %j as %j", (filter, expected) => {
    expect(validateEventFilter(filter)).toEqual({ ok: true, value: expected });
  });

  it.each([
    [[], /non-empty list/],
    ["transaction.success", /non-empty list/],
    [null, /non-empty list/],
    [["transaction.succes"], /unknown event type\(s\) "transaction.succes"/],
    [["transaction.processing", "x"], /"transaction.processing", "x"/],
    [["TRANSACTION.SUCCESS"], /unknown/],
    [["transaction.success", 7], /unknown event type\(s\) 7/],
  ])("rejects %j", (filter, message) => {
    const result = validateEventFilter(filter);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("INVALID_FIELD");
    expect(result.error.field).toBe("events");
    expect(result.error.message).toMatch(message);
  });

  it("lists the allowed names in the error", () => {
    const result = validateEventFilter(["nope"]);
    expect(result.ok ? "" : result.error.message).toContain(
      '"transaction.success", "transaction.refunded", "transaction.failed", "statement.closed", "batch.completed", "*"',
    );
  });
});
