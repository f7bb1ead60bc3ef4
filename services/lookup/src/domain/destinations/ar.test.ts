import { describe, expect, it } from "vitest";
import { validateArDestination } from "./ar.js";

const request = (destination: string) =>
  ({ country_code: "AR", destination, field: "payment_destination" }) as const;

describe("validateArDestination", () => {
  it.each([
    ["0110012920000091344977", "CBU", "0110012920000091344977"],
    ["0170099220000067797370", "CBU", "0170099220000067797370"],
    ["0720001400000123456784", "CBU", "0720001400000123456784"],
    ["0720009000000000010070", "CBU", "0720009000000000010070"],
    ["0000003100062244154712", "CVU", "0000003100062244154712"],
    ["0000076500000123456784", "CVU", "0000076500000123456784"],
    ["01100129 20000091344977", "CBU", "0110012920000091344977"],
    ["casa.perro.sol", "ALIAS", "casa.perro.sol"],
    ["juan-perez.77", "ALIAS", "juan-perez.77"],
    ["MI.ALIAS.2024", "ALIAS", "mi.alias.2024"],
    ["CUARTO.CENTRO.NAIPE", "ALIAS", "cuarto.centro.naipe"],
  ])("accepts %s as %s", (input, type, canonical) => {
    const result = validateArDestination(request(input));
    expect(result).toEqual({
      ok: true,
      value: {
        destination_type: type,
        payment_destination: canonical,
        payment_destination_code: "",
        institution_name: "",
      },
    });
  });

  it.each([
    ["0110012920000091344978", "second check digit (position 22) should be 7"],
    ["0110012820000091344977", "first check digit (position 8) should be 9"],
    ["011001292000009134497", "22 digits, got 21"],
    ["01100129200000913449A7", "a CBU/CVU has digits only"],
    ["abc12", "at least 6 characters"],
    ["juan_perez", "only letters a-z"],
    ["peña.casa.sol", "only letters a-z"],
    ["mi alias", "only letters a-z"],
    ["a".repeat(21), "at most 20 characters"],
    ["+5491123456789", "phone numbers are not payment keys in Argentina"],
    ["1123456789", "phone numbers are not payment keys in Argentina"],
    ["5491123456789", "phone numbers are not payment keys in Argentina"],
  ])("refuses %s (%s)", (input, message) => {
    const result = validateArDestination(request(input));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("INVALID_DESTINATION");
    expect(result.error.field).toBe("payment_destination");
    expect(result.error.message).toContain(message);
  });

  it("reads an all-digit value as a CBU attempt, never as an alias", () => {
    const result = validateArDestination(request("123456"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain("Invalid CBU/CVU");
  });
});
