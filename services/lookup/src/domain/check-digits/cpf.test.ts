import { describe, expect, it } from "vitest";
import { checkCpf, cpfCheckDigits } from "./cpf.js";

describe("checkCpf", () => {
  it.each(["52998224725", "12345678909", "11144477735", "93541134780", "00000000191", "11912345684"])(
    "accepts %s",
    (value) => {
      expect(checkCpf(value)).toEqual({ valid: true });
    },
  );

  it.each([
    ["11111111111", "a CPF cannot repeat one digit 11 times"],
    ["00000000000", "a CPF cannot repeat one digit 11 times"],
    ["52998224724", "check digits should be 25"],
    ["1234567890", "a CPF has 11 digits"],
    ["529982247251", "a CPF has 11 digits"],
    ["529.982.247-25", "a CPF has 11 digits"],
  ])("refuses %s: %s", (value, reason) => {
    expect(checkCpf(value)).toEqual({ valid: false, reason });
  });
});

describe("cpfCheckDigits", () => {
  it.each([
    ["529982247", "25"],
    ["123456789", "09"],
    ["000000001", "91"],
  ])("%s -> %s", (base, digits) => {
    expect(cpfCheckDigits(base)).toBe(digits);
  });
});
