import { describe, expect, it } from "vitest";
import { decodeEntryCursor, encodeEntryCursor } from "./entry-cursor.js";
import { LedgerFailure } from "./ledger-failure.js";

describe("balance history cursor", () => {
  it("reads back the entry id it wrote", () => {
    expect(decodeEntryCursor(encodeEntryCursor("42"))).toBe(42n);
    expect(decodeEntryCursor(encodeEntryCursor("9223372036854775807"))).toBe(9223372036854775807n);
  });

  it.each([
    "",
    "not-base64-json",
    Buffer.from(JSON.stringify({ before: 42 })).toString("base64url"),
    Buffer.from(JSON.stringify({ before: "0" })).toString("base64url"),
    Buffer.from(JSON.stringify({ before: "-1" })).toString("base64url"),
    Buffer.from(JSON.stringify({ before: "1e3" })).toString("base64url"),
    Buffer.from(JSON.stringify([1, "tx_abc"])).toString("base64url"),
    "x".repeat(200),
  ])("refuses %j as INVALID_FIELD cursor", (cursor) => {
    try {
      decodeEntryCursor(cursor);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(LedgerFailure);
      expect((error as LedgerFailure).reason).toBe("INVALID_FIELD");
      expect((error as LedgerFailure).field).toBe("cursor");
    }
  });
});
