import { describe, expect, it } from "vitest";
import { isBrazilianDdd, validateBrDestination } from "./br.js";

const request = (destination: string) =>
  ({ country_code: "BR", destination, field: "payment_destination", code: "PIX" }) as const;

describe("validateBrDestination", () => {
  it.each([
    ["52998224725", "PIX_CPF", "52998224725"],
    ["12345678909", "PIX_CPF", "12345678909"],
    ["11144477735", "PIX_CPF", "11144477735"],
    ["93541134780", "PIX_CPF", "93541134780"],
    ["529.982.247-25", "PIX_CPF", "52998224725"],
    ["11912345684", "PIX_CPF", "11912345684"],
    ["11222333000181", "PIX_CNPJ", "11222333000181"],
    ["11444777000161", "PIX_CNPJ", "11444777000161"],
    ["11.222.333/0001-81", "PIX_CNPJ", "11222333000181"],
    ["12ABC34501DE35", "PIX_CNPJ", "12ABC34501DE35"],
    ["12abc34501de35", "PIX_CNPJ", "12ABC34501DE35"],
    ["A1B2C3D4000193", "PIX_CNPJ", "A1B2C3D4000193"],
    ["9Z8Y7X6W000105", "PIX_CNPJ", "9Z8Y7X6W000105"],
    ["ABCDEFGH000195", "PIX_CNPJ", "ABCDEFGH000195"],
    ["+5511987654321", "PIX_PHONE", "+5511987654321"],
    ["+5521998765432", "PIX_PHONE", "+5521998765432"],
    ["+55 (11) 98765-4321", "PIX_PHONE", "+5511987654321"],
    ["pagamentos@example.com", "PIX_EMAIL", "pagamentos@example.com"],
    ["Pagamentos@Example.com", "PIX_EMAIL", "pagamentos@example.com"],
    ["123e4567-e89b-12d3-a456-426655440000", "PIX_EVP", "123e4567-e89b-12d3-a456-426655440000"],
    ["123E4567-E89B-12D3-A456-426655440000", "PIX_EVP", "123e4567-e89b-12d3-a456-426655440000"],
  ])("accepts %s as %s", (input, type, canonical) => {
    const result = validateBrDestination(request(input));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      destination_type: type,
      payment_destination: canonical,
      payment_destination_code: "PIX",
      institution_name: "Pix",
    });
  });

  it("marks CNPJ keys as business destinations and CPF keys as not", () => {
    const cnpj = validateBrDestination(request("11222333000181"));
    const cpf = validateBrDestination(request("52998224725"));
    expect(cnpj.ok && cnpj.value.is_business).toBe(true);
    expect(cpf.ok && cpf.value.is_business).toBe(false);
  });

  it.each([
    ["11111111111", "Invalid CPF: a CPF cannot repeat one digit 11 times"],
    ["52998224724", "Invalid CPF: check digits should be 25"],
    ["1234567890", "a CPF has 11 digits and a CNPJ 14"],
    ["11987654321", "Invalid CPF: check digits should be"],
    ["11222333000182", "Invalid CNPJ: check digits should be 81"],
    ["12ABC34501DE36", "Invalid CNPJ: check digits should be 35"],
    ["12ABC34501DEA5", "Invalid CNPJ: a CNPJ has 12 characters"],
    ["00000000000000", "Invalid CNPJ: a CNPJ cannot repeat"],
    ["+551132345678", "expected +55, a 2-digit area code (DDD) and a 9-digit mobile number"],
    ["+5511323456780", "not a mobile number"],
    ["+551187654321", "expected +55, a 2-digit area code (DDD) and a 9-digit mobile number"],
    ["+5520987654321", "area code (DDD) 20 does not exist"],
    ["+5411987654321", "Pix phone keys are Brazilian numbers (+55)"],
    ["+55119876x4321", "digits only after +55"],
    ["5511987654321", "phone keys are written in +55 format"],
    [`${"a".repeat(66)}@example.com`, "at most 77 characters"],
    ["pagamentos@@example.com", "not an e-mail address"],
    ["pagamentos example@com", "not an e-mail address"],
    ["123e4567e89b12d3a456426655440000", "36 characters, with hyphens"],
    ["hello", "expected a CPF, CNPJ, +55 mobile number, e-mail or random key"],
  ])("refuses %s (%s)", (input, message) => {
    const result = validateBrDestination(request(input));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "INVALID_DESTINATION", field: "payment_destination" });
    expect(result.error.message).toContain(message);
  });

  it("keeps a 77-character e-mail and refuses 78 characters", () => {
    const local77 = `${"a".repeat(65)}@example.com`;
    expect(local77).toHaveLength(77);
    expect(validateBrDestination(request(local77)).ok).toBe(true);
    expect(validateBrDestination(request(`a${local77}`)).ok).toBe(false);
  });
});

describe("isBrazilianDdd", () => {
  it.each([
    ["11", true],
    ["99", true],
    ["20", false],
    ["23", false],
    ["52", false],
    ["10", false],
  ])("%s -> %s", (ddd, expected) => {
    expect(isBrazilianDdd(ddd)).toBe(expected);
  });
});
