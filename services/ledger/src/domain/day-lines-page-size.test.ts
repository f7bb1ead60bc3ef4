import { describe, expect, it } from "vitest";
import { LedgerFailure } from "./ledger-failure.js";
import { dayLinesPageSize, feedPageSize, MAX_DAY_LINES_PAGE } from "./statement-lines.js";

describe("a day's lines page size", () => {
  it("takes 1 to 5,000 (0 is the feed's default), above the public feed's 1,000", () => {
    expect(MAX_DAY_LINES_PAGE).toBe(5000);
    expect(dayLinesPageSize(0)).toBe(feedPageSize(0));
    expect(dayLinesPageSize(1)).toBe(1);
    expect(dayLinesPageSize(5000)).toBe(5000);
    expect(() => feedPageSize(5000)).toThrow(LedgerFailure);
  });

  it("refuses anything else as INVALID_FIELD on `limit`", () => {
    for (const bad of [5001, -1, 1.5, Number.NaN, 2 ** 31]) {
      let caught: unknown;
      try {
        dayLinesPageSize(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught, String(bad)).toBeInstanceOf(LedgerFailure);
      expect((caught as LedgerFailure).field, String(bad)).toBe("limit");
    }
  });
});
