import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, requestFingerprint } from "./request-fingerprint.js";

describe("canonicalJson", () => {
  it.each([
    [{ b: 1, a: [{ d: 2, c: null }] }, '{"a":[{"c":null,"d":2}],"b":1}'],
    [{ z: "é", y: undefined }, '{"z":"é"}'],
    [[1, "two", true, null], '[1,"two",true,null]'],
    ["tx_1", '"tx_1"'],
    [{}, "{}"],
  ])("%o → %s", (value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });
});

describe("requestFingerprint", () => {
  const base = requestFingerprint("POST /executePayout", { tx_id: "tx_1" }, { dp: 2 });

  it("is the SHA-256 hex of the canonical route, body and params", () => {
    const text = '{"body":{"tx_id":"tx_1"},"params":{"dp":2},"route":"POST /executePayout"}';
    expect(base).toBe(createHash("sha256").update(text).digest("hex"));
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it("ignores key order", () => {
    expect(requestFingerprint("r", { a: 1, b: 2 }, { dp: 2 })).toBe(
      requestFingerprint("r", { b: 2, a: 1 }, { dp: 2 }),
    );
  });

  it.each([
    ["another tx", () => requestFingerprint("POST /executePayout", { tx_id: "tx_2" }, { dp: 2 })],
    ["another dp", () => requestFingerprint("POST /executePayout", { tx_id: "tx_1" }, { dp: 4 })],
    ["another route", () => requestFingerprint("POST /other", { tx_id: "tx_1" }, { dp: 2 })],
    ["an extra field", () => requestFingerprint("POST /executePayout", { tx_id: "tx_1", x: 1 }, { dp: 2 })],
  ])("changes with %s", (_name, other) => {
    expect(other()).not.toBe(base);
  });
});
