import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, pageSize } from "./list-cursor.js";

describe("list cursor", () => {
  it("round-trips a position exactly", () => {
    const position = {
      createdAt: new Date("2026-03-01T12:00:00.123Z"),
      txId: "tx_01jc0000000000000000000000",
    };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it("is opaque URL-safe text", () => {
    expect(encodeCursor({ createdAt: new Date(0), txId: "tx_abc" })).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    "",
    "not-base64!",
    Buffer.from("{}").toString("base64url"),
    Buffer.from('[1,"tx_a",3]').toString("base64url"),
    Buffer.from('["1","tx_a"]').toString("base64url"),
    Buffer.from('[1,"evil\'); --"]').toString("base64url"),
    "a".repeat(201),
  ])("refuses %j", (cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(/cursor/);
  });
});

describe("pageSize", () => {
  it.each([
    [0, 20],
    [1, 1],
    [100, 100],
  ])("%i → %i", (limit, size) => {
    expect(pageSize(limit)).toBe(size);
  });

  it.each([-1, 101, 2.5])("refuses %d", (limit) => {
    expect(() => pageSize(limit)).toThrow(/limit/);
  });
});
