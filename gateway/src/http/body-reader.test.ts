import { describe, expect, it } from "vitest";
import { BodyReader } from "./body-reader.js";

const fails = (fn: () => unknown, code: string, field?: string) =>
  expect(fn).toThrowError(expect.objectContaining({ code, ...(field ? { field } : {}) }));

describe("BodyReader", () => {
  it("reads typed fields and treats null and empty strings as absent", () => {
    const b = new BodyReader({ s: "x", n: 3, e: "", z: null, d: 1.5, ds: "0.30", a: ["A"] });
    expect(b.string("s", { required: true })).toBe("x");
    expect(b.string("e")).toBeUndefined();
    expect(b.string("z")).toBeUndefined();
    expect(b.integer("n", { min: 1 })).toBe(3);
    expect(b.decimalText("d")).toBe("1.5");
    expect(b.decimalText("ds")).toBe("0.30");
    expect(b.stringArray("a")).toEqual(["A"]);
  });

  it("names the field at fault, with its path when nested", () => {
    const b = new BodyReader({ n: "3", fees: { percent: "abc" }, list: [1] });
    fails(() => b.string("missing", { required: true }), "MISSING_REQUIRED_FIELD", "missing");
    fails(() => b.integer("n"), "INVALID_FIELD", "n");
    fails(() => b.object("fees")?.decimalText("percent"), "INVALID_FIELD", "fees.percent");
    fails(() => b.stringArray("list"), "INVALID_FIELD", "list");
    fails(() => new BodyReader([1, 2]), "INVALID_FIELD");
  });

  it("refuses strings that are too long or do not match", () => {
    const b = new BodyReader({ id: "a b" });
    fails(() => b.string("id", { pattern: /^[a-z]+$/ }), "INVALID_FIELD", "id");
    fails(() => b.string("id", { max: 2 }), "INVALID_FIELD", "id");
  });
});
