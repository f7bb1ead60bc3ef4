import { describe, expect, it } from "vitest";
import { keysetPage } from "./keyset-page.js";

const rows = [{ id: "a" }, { id: "b" }, { id: "c" }];

describe("keysetPage", () => {
  it("cuts the extra row off and makes the cursor from the page's last row", () => {
    expect(keysetPage(rows, 2, (last) => `after:${last.id}`)).toEqual({
      page: [{ id: "a" }, { id: "b" }],
      nextCursor: "after:b",
    });
  });

  it("answers no cursor when no extra row was read", () => {
    expect(keysetPage(rows, 3, (last) => last.id)).toEqual({ page: rows, nextCursor: "" });
    expect(keysetPage(rows.slice(0, 1), 3, (last) => last.id)).toEqual({
      page: [{ id: "a" }],
      nextCursor: "",
    });
    expect(keysetPage([], 3, (last: { id: string }) => last.id)).toEqual({ page: [], nextCursor: "" });
  });
});
