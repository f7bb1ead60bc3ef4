import { describe, expect, it } from "vitest";
import { classifyPixKey } from "./pix-key-shape.js";

describe("classifyPixKey", () => {
  it.each([
    ["52998224725", "CPF", "52998224725"],
    ["11222333000181", "CNPJ", "11222333000181"],
    ["12ABC34501DE35", "CNPJ", "12ABC34501DE35"],
    ["+5511987654321", "PHONE", "+5511987654321"],
    ["+5521998765432", "PHONE", "+5521998765432"],
    ["pagamentos@example.com", "EMAIL", "pagamentos@example.com"],
    ["Pagamentos@Example.com", "EMAIL", "pagamentos@example.com"],
    ["123e4567-e89b-12d3-a456-426655440000", "EVP", "123e4567-e89b-12d3-a456-426655440000"],
    ["123E4567-E89B-12D3-A456-426655440000", "EVP", "123e4567-e89b-12d3-a456-426655440000"],
    // 11 bare digits are a CPF even when they also look like a mobile number (Pix's rule for ambiguous keys).
    ["11987654321", "CPF", "11987654321"],
  ])("%s → %s", (raw, type, key) => {
    expect(classifyPixKey(raw)).toEqual({ type, key });
  });

  it.each([
    ["", "empty"],
    ["1234567890", "10 digits"],
    ["+551132345678", "landline, not a mobile"],
    ["+551187654321", "8-digit subscriber number"],
    ["+5520987654321", "DDD 20 does not exist"],
    ["+5523987654321", "DDD 23 does not exist"],
    ["123e4567e89b12d3a456426655440000", "EVP without hyphens"],
    [`${"a".repeat(66)}@example.com`, "e-mail over 77 characters"],
    ["fulano@", "e-mail without domain"],
    ["12abc34501de35", "lower-case CNPJ"],
    ["+14155550123", "foreign phone"],
  ])("rejects %s (%s)", (raw) => {
    expect(classifyPixKey(raw)).toBeUndefined();
  });
});
