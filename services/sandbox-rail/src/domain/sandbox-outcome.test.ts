import { describe, expect, it } from "vitest";
import { callbackBackoffMs, isRailOutcome, sandboxVerdict } from "./sandbox-outcome.js";

describe("sandboxVerdict", () => {
  it.each([
    ["0123456789", "SUCCESS"],
    ["+51987659999", "FAILED"],
    ["0000003100010000009999", "FAILED"],
    ["fail@example.com", "FAILED"],
    ["alias.FAIL.sandbox", "FAILED"],
    ["99990000", "SUCCESS"],
    ["", "SUCCESS"],
  ])("%s → %s", (destination, outcome) => {
    expect(sandboxVerdict(destination).outcome).toBe(outcome);
  });

  it("gives a reason for every failure and none for success", () => {
    expect(sandboxVerdict("x9999").reason).toMatch(/closed/);
    expect(sandboxVerdict("ok").reason).toBe("");
  });
});

describe("callbackBackoffMs", () => {
  it.each([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [7, 60_000],
    [40, 60_000],
  ])("attempt %i waits %i ms", (attempts, ms) => {
    expect(callbackBackoffMs(attempts)).toBe(ms);
  });
});

describe("isRailOutcome", () => {
  it("accepts exactly SUCCESS and FAILED", () => {
    expect(["SUCCESS", "FAILED", "success", "", "REFUNDED"].map(isRailOutcome)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
