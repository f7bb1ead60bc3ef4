import { describe, expect, it } from "vitest";
import { parseEmvAmount } from "./emv-amount.js";
import { currencyByNumericCode, type EmvCurrency } from "./emv-currency.js";

const currency = (numeric: string): EmvCurrency => {
  const found = currencyByNumericCode(numeric);
  if (!found) throw new Error(`no currency ${numeric}`);
  return found;
};
const BRL = currency("986");
const VND = currency("704");

describe("parseEmvAmount", () => {
  it.each<[string, EmvCurrency, string]>([
    ["150.00", BRL, "150.00"],
    ["150", BRL, "150.00"],
    ["150.5", BRL, "150.50"],
    ["10.00", BRL, "10.00"],
    ["0150.00", BRL, "150.00"],
    ["0.01", BRL, "0.01"],
    ["9999999999.99", BRL, "9999999999.99"],
    ["120000", VND, "120000"],
    ["50000.00", VND, "50000"],
    ["0", BRL, ""],
    ["0.00", BRL, ""],
  ])("%s %s → %s", (raw, cur, expected) => {
    expect(parseEmvAmount(raw, cur)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, EmvCurrency, string]>([
    ["1.005", BRL, 'amount "1.005" in tag 54 has 3 decimals; EMV allows at most 2'],
    ["50000.50", VND, 'amount "50000.50" in tag 54 has more decimals than VND allows (0)'],
    ["1,50", BRL, 'amount "1,50" in tag 54 must be digits with an optional "." and at most 13 characters'],
    [".50", BRL, 'amount ".50" in tag 54 must be digits with an optional "." and at most 13 characters'],
    ["150.", BRL, 'amount "150." in tag 54 must be digits with an optional "." and at most 13 characters'],
    ["-5.00", BRL, 'amount "-5.00" in tag 54 must be digits with an optional "." and at most 13 characters'],
    ["1e3", BRL, 'amount "1e3" in tag 54 must be digits with an optional "." and at most 13 characters'],
    [
      "99999999999.99",
      BRL,
      'amount "99999999999.99" in tag 54 must be digits with an optional "." and at most 13 characters',
    ],
  ])("rejects %s (%s)", (raw, cur, message) => {
    expect(parseEmvAmount(raw, cur)).toEqual({
      ok: false,
      error: { code: "INVALID_QR", message, field: "qr_string" },
    });
  });
});

describe("currencyByNumericCode", () => {
  it.each([
    ["032", "ARS", 2],
    ["986", "BRL", 2],
    ["704", "VND", 0],
    ["404", "KES", 2],
    ["834", "TZS", 2],
    ["800", "UGX", 0],
  ])("%s → %s with %d minor units", (numeric, alpha, minorUnits) => {
    expect(currencyByNumericCode(numeric)).toEqual({ alpha, numeric, minorUnits });
  });

  it("knows nothing outside the corridors", () => {
    expect(currencyByNumericCode("840")).toBeUndefined();
    expect(currencyByNumericCode("32")).toBeUndefined();
  });
});
