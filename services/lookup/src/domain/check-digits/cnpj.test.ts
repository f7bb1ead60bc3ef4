import { describe, expect, it } from "vitest";
import { checkCnpj, cnpjCheckDigits } from "./cnpj.js";

describe("checkCnpj", () => {
  it.each([
    ["11222333000181", "numeric"],
    ["11444777000161", "numeric"],
    ["12ABC34501DE35", "alphanumeric, SERPRO/RFB example"],
    ["A1B2C3D4000193", "alphanumeric, built by hand from the algorithm"],
    ["9Z8Y7X6W000105", "alphanumeric, built by hand from the algorithm"],
    ["ABCDEFGH000195", "alphanumeric, built by hand from the algorithm"],
  ])("accepts %s (%s)", (value) => {
    expect(checkCnpj(value)).toEqual({ valid: true });
  });

  it.each([
    ["11222333000182", "check digits should be 81"],
    ["12ABC34501DE36", "check digits should be 35"],
    ["12ABC34501DEA5", "a CNPJ has 12 characters 0-9/A-Z followed by 2 numeric check digits"],
    ["00000000000000", "a CNPJ cannot repeat one character 14 times"],
    ["12abc34501de35", "a CNPJ has 12 characters 0-9/A-Z followed by 2 numeric check digits"],
    ["1122233300018", "a CNPJ has 12 characters 0-9/A-Z followed by 2 numeric check digits"],
  ])("refuses %s: %s", (value, reason) => {
    expect(checkCnpj(value)).toEqual({ valid: false, reason });
  });
});

describe("cnpjCheckDigits", () => {
  it("maps letters to char code − 48 (A = 17)", () => {
    expect(cnpjCheckDigits("12ABC34501DE")).toBe("35");
  });
});
