import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exactNumberText, recordNumberTexts, withExactNumbers } from "./json-number-text.js";

/** Parses like the JSON edge does: JSON.parse, then the number texts recorded beside the value. */
function parse(text: string): unknown {
  const value = JSON.parse(text);
  recordNumberTexts(text, value);
  return value;
}

describe("recordNumberTexts", () => {
  it("keeps digits a double loses", () => {
    const body = parse('{"amount":1234567.123456789012,"n":9007199254740993}') as object;
    expect(exactNumberText(body, "amount")).toBe("1234567.123456789012");
    expect(exactNumberText(body, "n")).toBe("9007199254740993");
  });

  it("finds numbers in nested objects and arrays, after strings with escapes and braces", () => {
    const text = ' { "s" : "a\\"}{,:[1", "fees": {"percent" : 1.10, "x": [0.5, {"y": -2.000}]}, "z": null }';
    const body = parse(text) as { fees: { percent: number; x: [number, { y: number }] } };
    expect(exactNumberText(body.fees, "percent")).toBe("1.10");
    expect(exactNumberText(body.fees.x, "0")).toBe("0.5");
    expect(exactNumberText(body.fees.x[1], "y")).toBe("-2.000");
  });

  it("skips a byte-order mark, which the JSON edge's parser also accepts", () => {
    const body = { a: 1 };
    recordNumberTexts('\ufeff{"a":1.0}', body);
    expect(exactNumberText(body, "a")).toBe("1.0");
  });

  it("keeps the last of duplicated keys, as JSON.parse does", () => {
    const body = parse('{"a":1.0,"a":2.50}') as object;
    expect(exactNumberText(body, "a")).toBe("2.50");
  });

  it("reads escaped keys as JSON does", () => {
    const body = parse('{"\\u0061mount":3.30}') as object;
    expect(exactNumberText(body, "amount")).toBe("3.30");
  });

  it("expands small exponents exactly and refuses huge ones", () => {
    const body = parse('{"a":1.5e3,"b":12E-5,"c":1e999,"d":-0}') as object;
    expect(exactNumberText(body, "a")).toBe("1500");
    expect(exactNumberText(body, "b")).toBe("0.00012");
    expect(exactNumberText(body, "c")).toBe("1e999");
    expect(exactNumberText(body, "d")).toBe("-0");
  });

  it("answers a number whose exponent is beyond ±40 as written, never as the double it parsed to", () => {
    const digits = `1${"0".repeat(50)}1e-49`;
    const body = parse(`{"amount":${digits}}`) as { amount: number };
    expect(body.amount).toBe(100);
    expect(exactNumberText(body, "amount")).toBe(digits);
    expect(withExactNumbers(body)).toEqual({ amount: digits });
  });

  it("survives deep nesting without recursion", () => {
    const depth = 100_000;
    const text = `${"[".repeat(depth)}1.10${"]".repeat(depth)}`;
    expect(() => recordNumberTexts(text, undefined)).not.toThrow();
  });

  it("answers nothing for values it did not parse", () => {
    expect(exactNumberText({ a: 1 }, "a")).toBeUndefined();
  });

  it("records, for any JSON object of decimal members, each member's text as written", () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), fc.nat(18), fc.nat({ max: 3 }))
      .map(([digits, scale, zeros]) => {
        const abs = (digits < 0n ? -digits : digits).toString().padStart(scale + 1, "0");
        const int = abs.slice(0, abs.length - scale);
        const frac = abs.slice(abs.length - scale) + "0".repeat(scale > 0 ? zeros : 0);
        return `${digits < 0n ? "-" : ""}${int}${frac ? `.${frac}` : ""}`;
      });
    const key = fc.string({ maxLength: 6 }).filter((k) => k !== "__proto__");
    fc.assert(
      fc.property(fc.dictionary(key, decimal, { maxKeys: 8 }), fc.nat(3), (members, pad) => {
        const space = " ".repeat(pad);
        const text = `{${Object.entries(members)
          .map(([k, v]) => `${JSON.stringify(k)}${space}:${space}{"v":[${v}]},${JSON.stringify(k)}:${v}`)
          .join(",")}}`;
        const body = parse(text) as Record<string, unknown>;
        for (const [k, v] of Object.entries(members)) expect(exactNumberText(body, k)).toBe(v);
      }),
    );
  });
});

describe("withExactNumbers", () => {
  it("replaces top-level numbers by their exact text and leaves the rest", () => {
    const body = parse('{"amount":100.120,"currency":"BRL","n":{"x":1}}');
    expect(withExactNumbers(body)).toEqual({ amount: "100.120", currency: "BRL", n: { x: 1 } });
    expect(withExactNumbers([1])).toEqual([1]);
  });
});
