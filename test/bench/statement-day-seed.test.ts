import { describe, expect, it } from "vitest";
import { movementsFor } from "./statement-day-seed.js";

/** Statement lines of movements 0 ..< n: a credit (every fifth, or `creditAt`) is one line, a payout two. */
function linesOf(n: number, creditAt: number): number {
  let lines = 0;
  for (let i = 0; i < n; i++) lines += i % 5 === 0 || i === creditAt ? 1 : 2;
  return lines;
}

describe("movementsFor", () => {
  it.each([1, 2, 3, 9, 10, 20_000, 100_000])("makes exactly %i statement lines", (lines) => {
    const { movements, creditAt } = movementsFor(lines);
    expect(linesOf(movements, creditAt)).toBe(lines);
  });

  it("turns the last movement into a credit only where a payout would overshoot", () => {
    // 0 credit (1), 1 payout (3): a third line needs a credit where a payout would be.
    expect(movementsFor(3)).toEqual({ movements: 2, creditAt: -1 });
    expect(movementsFor(2)).toEqual({ movements: 2, creditAt: 1 });
    expect(movementsFor(100_000).movements).toBe(55_556);
  });
});
