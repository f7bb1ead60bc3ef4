import { describe, expect, it } from "vitest";
import { Dec } from "./decimal.js";
import { EXCHANGE_RATE_DP, fixed, JsonDecimal, local, rate, stringifyJson, usd } from "./json-decimal.js";

describe("fixed", () => {
  it.each([
    ["0.5", 2, "0.50"],
    ["0.005", 2, "0.01"],
    ["0.004999", 2, "0.00"],
    ["-0.005", 2, "-0.01"],
    ["-0.004", 2, "0.00"],
    ["2.5", 0, "3"],
    ["1234.5678", 0, "1235"],
    ["0.1", 10, "0.1000000000"],
    ["0.00000000005", 10, "0.0000000001"],
    ["123456789012345678901234567890.5", 0, "123456789012345678901234567891"],
    ["1e-30", 2, "0.00"],
  ])("rounds %s to %i dp as %s", (input, dp, expected) => {
    expect(fixed(new Dec(input), dp).text).toBe(expected);
  });

  it("refuses bad decimal places and non-finite values", () => {
    expect(() => fixed(new Dec(1), -1)).toThrow(RangeError);
    expect(() => fixed(new Dec(1), 1.5)).toThrow(RangeError);
    expect(() => fixed(new Dec(Number.NaN), 2)).toThrow(RangeError);
  });
});

describe("usd, local and rate", () => {
  it("renders USD at the partner's dp, 2 by default", () => {
    expect(usd(new Dec("0.5")).text).toBe("0.50");
    expect(usd(new Dec("0.003"), 0).text).toBe("0");
    expect(usd(new Dec("0.003"), 10).text).toBe("0.0030000000");
    expect(() => usd(new Dec(1), 11)).toThrow(RangeError);
  });

  it.each([
    ["1234.5", "BRL", "1234.50"],
    ["1234.5", "VND", "1235"],
    ["1234.5", "UGX", "1235"],
    ["1234.5", "COP", "1234.50"],
    ["1.2345", "KWD", "1.235"],
  ])("renders local %s %s as %s", (input, currency, expected) => {
    expect(local(new Dec(input), currency).text).toBe(expected);
  });

  it("refuses a local amount in an unknown or N.A. currency", () => {
    expect(() => local(new Dec(1), "brl")).toThrow(RangeError);
    expect(() => local(new Dec(1), "XAU")).toThrow(RangeError);
  });

  it("renders exchange rates at 10 dp", () => {
    expect(EXCHANGE_RATE_DP).toBe(10);
    expect(rate(new Dec(5)).text).toBe("5.0000000000");
    expect(rate(new Dec(1).div(3)).text).toBe("0.3333333333");
    expect(rate(new Dec("0.00000000005")).text).toBe("0.0000000001");
  });
});

describe("JsonDecimal", () => {
  it.each(["1e5", "01", ".5", "1.", "+1", "NaN", "", "1 ", "0x1"])("refuses %j as number text", (text) => {
    expect(() => new JsonDecimal(text)).toThrow(TypeError);
  });

  it("falls back to a plain number under JSON.stringify", () => {
    expect(JSON.stringify({ fee: new JsonDecimal("0.50") })).toBe('{"fee":0.5}');
  });
});

describe("stringifyJson", () => {
  it("writes exact decimals in nested objects and arrays", () => {
    const body = {
      quotations: [
        { amount: new JsonDecimal("100.00"), fee: new JsonDecimal("0.50"), tags: [new JsonDecimal("0")] },
        { amount: new JsonDecimal("-12.340") },
      ],
    };
    expect(stringifyJson(body)).toBe(
      '{"quotations":[{"amount":100.00,"fee":0.50,"tags":[0]},{"amount":-12.340}]}',
    );
  });

  it("writes what JSON.stringify writes for everything else", () => {
    const values: unknown[] = [
      { text: 'say "hi"\n\\ \u2028 é', n: -1.5, ok: true, none: null },
      { skip: undefined, fn: () => 1, kept: 1 },
      [undefined, () => 1, Symbol("s"), Number.NaN, Number.POSITIVE_INFINITY],
      { at: new Date("2026-01-02T03:04:05.000Z") },
      { boxed: [new Number(3), new String("s"), new Boolean(false)] },
      { '"weird" key': 1, "line\nbreak": 2, "é-ñ": 3, "": 4, "a-b_c9": 5 },
      {
        fn: Object.assign(() => 1, { toJSON: () => 5 }),
        list: [Object.assign(() => 1, { toJSON: () => "x" })],
      },
      { nested: { deeper: [{ a: [1, [2, { b: null }]] }] } },
      [],
      {},
      "top",
      42,
      null,
    ];
    for (const value of values) {
      expect(stringifyJson(value)).toBe(JSON.stringify(value));
    }
  });

  it("honours toJSON that returns a JsonDecimal", () => {
    const money = { toJSON: () => new JsonDecimal("1.10") };
    expect(stringifyJson({ money })).toBe('{"money":1.10}');
  });

  it("throws like JSON.stringify on cycles, bigints and a value with no JSON form", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyJson(cyclic)).toThrow(TypeError);
    expect(() => stringifyJson({ n: 1n })).toThrow(TypeError);
    expect(() => stringifyJson(undefined)).toThrow(TypeError);
  });

  it("allows the same object twice when it is not its own ancestor", () => {
    const shared = { fee: new JsonDecimal("0.30") };
    expect(stringifyJson([shared, shared])).toBe('[{"fee":0.30},{"fee":0.30}]');
  });

  it("produces text that JSON.parse reads back", () => {
    const text = stringifyJson({ fee: fixed(new Dec("0.5"), 2), rate: rate(new Dec("5.123")) });
    expect(JSON.parse(text)).toEqual({ fee: 0.5, rate: 5.123 });
  });
});
