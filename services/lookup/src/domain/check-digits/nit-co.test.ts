import { describe, expect, it } from "vitest";
import { checkNit, nitCheckDigit } from "./nit-co.js";

// Public NITs of well-known entities: DIAN 800.197.268-4, Bancolombia 890.903.938-8, Ecopetrol 899.999.068-1.
describe("checkNit", () => {
  it.each(["8001972684", "8909039388", "8999990681"])("accepts %s", (value) => {
    expect(checkNit(value)).toEqual({ valid: true });
  });

  it.each([
    ["8001972685", "NIT check digit should be 4"],
    ["8909039381", "NIT check digit should be 8"],
    ["800197268-4", "a NIT has digits only"],
  ])("refuses %s: %s", (value, reason) => {
    expect(checkNit(value)).toEqual({ valid: false, reason });
  });
});

describe("nitCheckDigit", () => {
  it("keeps remainders 0 and 1 as the digit itself", () => {
    // Ecopetrol: weighted sum 1519, 1519 mod 11 = 1.
    expect(nitCheckDigit("899999068")).toBe(1);
  });
});
