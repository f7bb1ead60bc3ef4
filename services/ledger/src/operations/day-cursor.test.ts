import { Dec } from "@payouts/platform/money/decimal";
import { describe, expect, it } from "vitest";
import { LedgerFailure } from "../domain/ledger-failure.js";
import { encodeFeedCursor } from "../domain/statement-lines.js";
import { decodeDayCursor, encodeDayCursor } from "./day-cursor.js";

const day = { statementId: "st_p_2026-04-01_1", status: "open", opening: new Dec("100.5") };
const position = { xid: 41n, entryId: 7n, part: 1 as const };
const key = Buffer.alloc(32, 1);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const fields = (cursor: string) => JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];

describe("day cursors", () => {
  it("carry the position and the balance before its entry, trusted under the MAC", () => {
    const cursor = encodeDayCursor(day, position, new Dec("-12.345"), key);
    const read = decodeDayCursor(day, cursor, key);
    expect(read.position).toEqual(position);
    expect(read.balanceBefore?.toFixed()).toBe("-12.345");
  });

  it("read an edited balance, another day's cursor or another key's for the position alone", () => {
    const cursor = encodeDayCursor(day, position, new Dec("5"), key);
    const [xid, entryId, part, , mac] = fields(cursor);
    const edited = b64([xid, entryId, part, "5000", mac]);
    for (const [scope, c, k] of [
      [day, edited, key],
      [{ ...day, opening: new Dec("100.6") }, cursor, key],
      [{ ...day, status: "closed" }, cursor, key],
      [{ ...day, statementId: "st_p_2026-04-02_1" }, cursor, key],
      [day, cursor, Buffer.alloc(32, 2)],
    ] as const) {
      const read = decodeDayCursor(scope, c, k);
      expect(read.position).toEqual(position);
      expect(read.balanceBefore).toBeUndefined();
    }
  });

  it("accept a plain feed cursor as a position without a balance", () => {
    const read = decodeDayCursor(day, encodeFeedCursor(position), key);
    expect(read).toEqual({ position, balanceBefore: undefined });
  });

  it("refuse a malformed cursor as INVALID_FIELD on `after`", () => {
    const mac = "A".repeat(43);
    for (const bad of [
      "",
      "x",
      b64(["1", "2", 0, "1", "short"]),
      b64(["1", "2", 0, "1e9", mac]),
      b64(["1", "2", 2, "1", mac]),
      b64(["01", "2", 0, "1", mac]),
      b64(["1", (2n ** 63n).toString(), 0, "1", mac]),
      "A".repeat(401),
    ]) {
      let caught: unknown;
      try {
        decodeDayCursor(day, bad, key);
      } catch (error) {
        caught = error;
      }
      expect(caught, bad).toBeInstanceOf(LedgerFailure);
      expect((caught as LedgerFailure).field, bad).toBe("after");
    }
  });
});
