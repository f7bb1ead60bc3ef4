import { describe, expect, it } from "vitest";
import { readDp } from "./dp-param.js";

describe("readDp", () => {
  it.each([
    [{}, 2],
    [{ dp: "0" }, 0],
    [{ dp: "10" }, 10],
    [{ dp: "07" }, 7],
  ])("reads %o as %i", (query, dp) => {
    expect(readDp(query)).toBe(dp);
  });

  it.each([
    { dp: "" },
    { dp: "11" },
    { dp: "-1" },
    { dp: "2.5" },
    { dp: "abc" },
    { dp: "100" },
    { dp: ["3", "4"] },
  ])("refuses %o", (query) => {
    expect(() => readDp(query)).toThrowError(
      expect.objectContaining({ code: "INVALID_FIELD", field: "dp", status: 400 }),
    );
  });
});
