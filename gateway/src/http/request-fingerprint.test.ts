import { createHash } from "node:crypto";
import fc from "fast-check";
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

  it("gives the same text as the recursive version it replaced, so stored fingerprints stay valid", () => {
    const recursive = (value: unknown): string => {
      if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "";
      if (Array.isArray(value)) return `[${value.map((v) => recursive(v ?? null)).join(",")}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${recursive(v)}`).join(",")}}`;
    };
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(recursive(value));
      }),
    );
  });

  it("serialises any nesting depth without overflowing the stack", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 100_000; i++) deep = [{ k: deep }];
    const text = canonicalJson(deep);
    expect(text).toBe(`${'[{"k":'.repeat(100_000)}"x"${"}]".repeat(100_000)}`);
  });

  it("refuses a value JSON cannot represent", () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson({ a: [() => 1] })).toThrow(TypeError);
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
