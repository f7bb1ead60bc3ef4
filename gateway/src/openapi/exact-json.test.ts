import { JsonDecimal, stringifyJson } from "@payouts/platform/money/json-decimal";
import { describe, expect, it } from "vitest";
import { parseExactJson } from "./exact-json.js";

describe("parseExactJson", () => {
  it.each([
    ['{"fee":0.30}', '{"fee":0.30}'],
    ['{"rate":5.4000000000,"amount":2630000}', '{"rate":5.4000000000,"amount":2630000}'],
    ["[-0.50,1.0,2]", "[-0.50,1.0,2]"],
    ['{"a":{"b":[{"c":100.00}]}}', '{"a":{"b":[{"c":100.00}]}}'],
    ['{"note":"costs 0.30 \\"or\\" 1.50","fee":0.30}', '{"note":"costs 0.30 \\"or\\" 1.50","fee":0.30}'],
    ['{"id":"tx_0.50","n":null,"t":true}', '{"id":"tx_0.50","n":null,"t":true}'],
  ])("round-trips %s exactly through stringifyJson", (text, expected) => {
    expect(stringifyJson(parseExactJson(text))).toBe(expected);
  });

  it("keeps fractions as JsonDecimal and integers and strings as they are", () => {
    const value = parseExactJson('{"fee":0.30,"count":3,"label":"0.30"}') as Record<string, unknown>;
    expect(value.fee).toBeInstanceOf(JsonDecimal);
    expect((value.fee as JsonDecimal).text).toBe("0.30");
    expect(value.count).toBe(3);
    expect(value.label).toBe("0.30");
  });

  it("refuses text that is not JSON", () => {
    expect(() => parseExactJson("{fee: 0.30}")).toThrow(SyntaxError);
  });
});
