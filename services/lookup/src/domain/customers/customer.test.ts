import { describe, expect, it } from "vitest";
import { type CustomerInput, IC_TYPES, senderOf, validateCustomer } from "./customer.js";
import { ISO_ASSIGNED_COUNTRIES, isCountryCode } from "./iso-countries.js";

const VALID: CustomerInput = {
  name_first: "Ana",
  name_last: "Souza",
  country: "BR",
  ic_type: "CPF",
  ic_number: "529.982.247-25",
  phone: "+55 (11) 98765-4321",
  email: "Ana.Souza@Example.COM",
  external_reference: "crm-42",
};

describe("validateCustomer", () => {
  it("returns the canonical form of a full customer", () => {
    const result = validateCustomer(VALID);
    expect(result).toEqual({
      ok: true,
      value: {
        name_first: "Ana",
        name_last: "Souza",
        country: "BR",
        ic_type: "CPF",
        ic_number: "52998224725",
        phone: "+5511987654321",
        email: "ana.souza@example.com",
        external_reference: "crm-42",
      },
    });
  });

  it("accepts the minimum: two names and a country, optional fields empty", () => {
    const result = validateCustomer({ name_first: " Chidi ", name_last: "Okeke", country: "ng" });
    expect(result).toEqual({
      ok: true,
      value: {
        name_first: "Chidi",
        name_last: "Okeke",
        country: "NG",
        ic_type: "",
        ic_number: "",
        phone: "",
        email: "",
        external_reference: "",
      },
    });
  });

  it.each([
    ["name_first missing", { name_first: "  " }, "MISSING_REQUIRED_FIELD", "name_first"],
    ["name_last missing", { name_last: undefined }, "MISSING_REQUIRED_FIELD", "name_last"],
    ["name_first of 101 characters", { name_first: "a".repeat(101) }, "INVALID_FIELD", "name_first"],
    ["name_last with a control character", { name_last: "Sou\u0000za" }, "INVALID_FIELD", "name_last"],
    ["name_first without a letter", { name_first: "1234" }, "INVALID_FIELD", "name_first"],
    ["country missing", { country: "" }, "MISSING_REQUIRED_FIELD", "country"],
    ["country of three letters", { country: "BRA" }, "INVALID_FIELD", "country"],
    ["country not assigned", { country: "ZZ" }, "INVALID_FIELD", "country"],
    ["ic_type without ic_number", { ic_number: "" }, "MISSING_REQUIRED_FIELD", "ic_number"],
    ["ic_number without ic_type", { ic_type: undefined }, "MISSING_REQUIRED_FIELD", "ic_type"],
    ["unknown ic_type", { ic_type: "LIBRARY_CARD" }, "INVALID_FIELD", "ic_type"],
    ["CPF with a wrong check digit", { ic_number: "52998224726" }, "INVALID_FIELD", "ic_number"],
    [
      "CNPJ with a wrong check digit",
      { ic_type: "CNPJ", ic_number: "11.222.333/0001-82" },
      "INVALID_FIELD",
      "ic_number",
    ],
    ["ic_number with symbols", { ic_type: "PASSPORT", ic_number: "AB#123" }, "INVALID_FIELD", "ic_number"],
    [
      "ic_number of 41 characters",
      { ic_type: "PASSPORT", ic_number: "A".repeat(41) },
      "INVALID_FIELD",
      "ic_number",
    ],
    ["phone without +", { phone: "11987654321" }, "INVALID_FIELD", "phone"],
    ["phone too short", { phone: "+5511987" }, "INVALID_FIELD", "phone"],
    ["phone of 16 digits", { phone: "+1234567890123456" }, "INVALID_FIELD", "phone"],
    ["phone with letters", { phone: "+55 11 CALL-ME" }, "INVALID_FIELD", "phone"],
    ["email without domain", { email: "ana@" }, "INVALID_FIELD", "email"],
    ["email with a space", { email: "ana souza@example.com" }, "INVALID_FIELD", "email"],
    [
      "external_reference of 101 characters",
      { external_reference: "r".repeat(101) },
      "INVALID_FIELD",
      "external_reference",
    ],
  ] as const)("refuses %s", (_name, change, code, field) => {
    const result = validateCustomer({ ...VALID, ...change });
    expect(result.ok).toBe(false);
    if (!result.ok) expect([result.error.code, result.error.field]).toEqual([code, field]);
  });

  it("checks fields in the documented order: names, country, document, phone, email", () => {
    const result = validateCustomer({ country: "ZZ", phone: "x", email: "y" });
    expect(!result.ok && result.error.field).toBe("name_first");
    const later = validateCustomer({
      name_first: "A",
      name_last: "B",
      country: "AR",
      phone: "x",
      email: "y",
    });
    expect(!later.ok && later.error.field).toBe("phone");
  });

  it("accepts every documented ic_type, case-insensitively", () => {
    for (const type of Object.keys(IC_TYPES).filter((t) => t !== "CPF" && t !== "CNPJ")) {
      const result = validateCustomer({ ...VALID, ic_type: type.toLowerCase(), ic_number: "AB-123/45" });
      expect(result.ok && result.value.ic_type).toBe(type);
    }
  });

  it("accepts an alphanumeric CNPJ (2026 form) and stores it bare in upper case", () => {
    const result = validateCustomer({ ...VALID, ic_type: "cnpj", ic_number: "12.abc.345/01de-35" });
    expect(result.ok && result.value.ic_number).toBe("12ABC34501DE35");
  });

  it("keeps accents and non-Latin scripts in names", () => {
    const result = validateCustomer({ ...VALID, name_first: "José María", name_last: "Nguyễn" });
    expect(result.ok && [result.value.name_first, result.value.name_last]).toEqual(["José María", "Nguyễn"]);
  });
});

describe("senderOf", () => {
  it("gives the sender keys that have a value", () => {
    const result = validateCustomer({
      name_first: "Kofi",
      name_last: "Mensah",
      country: "GH",
      phone: "+233241234567",
    });
    if (!result.ok) throw new Error("expected a valid customer");
    expect(senderOf(result.value)).toEqual({
      name_first: "Kofi",
      name_last: "Mensah",
      country: "GH",
      phone: "+233241234567",
    });
  });
});

describe("ISO 3166-1 alpha-2 list", () => {
  it("holds the 249 assigned codes", () => {
    expect(ISO_ASSIGNED_COUNTRIES.size).toBe(249);
  });

  it("names a region for every code (cross-checked against the ICU data of the runtime)", () => {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    for (const code of ISO_ASSIGNED_COUNTRIES) expect(names.of(code), code).not.toBe(code);
  });

  it("accepts the corridors and XK, refuses reserved and exceptional codes", () => {
    for (const code of ["AR", "BR", "PE", "BO", "CO", "NG", "GH", "ZM", "KE", "TZ", "UG", "VN", "XK"]) {
      expect(isCountryCode(code), code).toBe(true);
    }
    for (const code of ["EU", "UK", "ZZ", "AA", "QO", "br"]) expect(isCountryCode(code), code).toBe(false);
  });
});
