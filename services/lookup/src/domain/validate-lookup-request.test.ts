import { describe, expect, it } from "vitest";
import { type LookupRequestInput, validateLookupRequest } from "./validate-lookup-request.js";

const PIX_QR =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
const VIET_QR =
  "00020101021238570010A00000072701270006970415011300110019324180208QRIBFTTA530370454061200005802VN62170813ung ho lu lut6304C15C";

const customer = { customer_id: "cus_123" };
const VALID: Record<string, LookupRequestInput> = {
  AR: {
    ...customer,
    country_code: "AR",
    payment_method: "payment_key",
    payment_destination: "0110012920000091344977",
  },
  BR: {
    ...customer,
    country_code: "BR",
    payment_method: "payment_key",
    payment_destination: "52998224725",
    payment_destination_code: "PIX",
  },
  PE: {
    ...customer,
    country_code: "PE",
    payment_method: "ewallet",
    payment_destination: "912345678",
    payment_destination_code: "YAPE",
  },
  BO: {
    ...customer,
    country_code: "BO",
    payment_method: "bank_transfer",
    payment_destination: "4012345678",
    payment_destination_code: "1",
    account_type: "SAVINGS",
    recipient: { name_first: "Juan", name_last: "Pérez", ic_number: "1234567" },
  },
  CO: {
    ...customer,
    country_code: "CO",
    payment_method: "payment_key",
    payment_destination: "3001234567",
    payment_destination_code: "BREB",
  },
  NG: {
    ...customer,
    country_code: "NG",
    payment_method: "bank_transfer",
    payment_destination: "0123456785",
    payment_destination_code: "058",
  },
  GH: {
    ...customer,
    country_code: "GH",
    payment_method: "bank_transfer",
    payment_destination: "0241234567",
    payment_destination_code: "MTN",
  },
  ZM: {
    ...customer,
    country_code: "ZM",
    payment_method: "bank_transfer",
    payment_destination: "0020756300173",
    payment_destination_code: "ZNCOZMLU",
  },
  KE: { ...customer, country_code: "KE", payment_method: "payment_key", payment_destination: "123456" },
  TZ: { ...customer, country_code: "TZ", payment_method: "payment_key", payment_destination: "12345678" },
  UG: { ...customer, country_code: "UG", payment_method: "payment_key", payment_destination: "123456" },
  VN: { ...customer, country_code: "VN", merchant_id: "0011001234567", account_reference: "970436" },
};
const valid = (country: string, overrides: LookupRequestInput = {}): LookupRequestInput => ({
  ...VALID[country],
  ...overrides,
});

function expectError(input: LookupRequestInput, code: string, field: string) {
  const result = validateLookupRequest(input);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error).toMatchObject({ code, field });
  return result;
}

describe("validateLookupRequest: a valid request per corridor", () => {
  it.each([
    ["AR", "ARS", "payment_key", "CBU", "0110012920000091344977", ""],
    ["BR", "BRL", "payment_key", "PIX_CPF", "52998224725", "PIX"],
    ["PE", "PEN", "ewallet", "PE_MOBILE", "+51912345678", "YAPE"],
    ["BO", "BOB", "bank_transfer", "BO_ACCOUNT", "4012345678", "1"],
    ["CO", "COP", "payment_key", "BREB_MOBILE", "+573001234567", "BREB"],
    ["NG", "NGN", "bank_transfer", "NUBAN", "0123456785", "000013"],
    ["GH", "GHS", "bank_transfer", "GH_MOMO", "+233241234567", "MTN"],
    ["ZM", "ZMW", "bank_transfer", "ZM_BANK_ACCOUNT", "0020756300173", "ZNCOZMLU"],
    ["KE", "KES", "payment_key", "TILL", "123456", "TILL"],
    ["TZ", "TZS", "payment_key", "TILL", "12345678", "TILL"],
    ["UG", "UGX", "payment_key", "TILL", "123456", "TILL"],
    ["VN", "VND", "bank_transfer", "VN_ACCOUNT", "0011001234567", "970436"],
  ])("%s", (country, currency, method, type, destination, code) => {
    const result = validateLookupRequest(valid(country));
    expect(result).toMatchObject({
      ok: true,
      value: {
        country_code: country,
        currency,
        payment_method: method,
        destination_type: type,
        payment_destination: destination,
        payment_destination_code: code,
        amount: "",
        recipient: { account_no: destination, country },
      },
    });
  });

  it("builds the whole NG destination, with the partner API's recipient keys", () => {
    expect(validateLookupRequest(valid("NG"))).toEqual({
      ok: true,
      value: {
        country_code: "NG",
        currency: "NGN",
        payment_method: "bank_transfer",
        destination_type: "NUBAN",
        payment_destination: "0123456785",
        payment_destination_code: "000013",
        institution_name: "Guaranty Trust Bank",
        is_dynamic: false,
        is_business: false,
        merchant: "",
        merchant_id: "",
        merchant_name: "",
        amount: "",
        recipient: {
          account_no: "0123456785",
          country: "NG",
          bank_code: "000013",
          bank_no: "000013",
          bank_name: "Guaranty Trust Bank",
        },
      },
    });
  });

  it("builds the whole BO destination, with the partner's recipient", () => {
    const result = validateLookupRequest(valid("BO"));
    expect(result.ok && result.value).toMatchObject({
      account_type: "SAVINGS",
      institution_name: "Banco Mercantil Santa Cruz",
      recipient: {
        account_no: "4012345678",
        country: "BO",
        bank_code: "1",
        bank_no: "1",
        bank_name: "Banco Mercantil Santa Cruz",
        name_first: "Juan",
        name_last: "Pérez",
        name: "Juan Pérez",
        ic_number: "1234567",
        ic_type: "CI",
      },
    });
  });

  it("builds the whole VN destination, with account_no and bank_no", () => {
    const result = validateLookupRequest(valid("VN"));
    expect(result.ok && result.value).toMatchObject({
      merchant_id: "0011001234567",
      account_reference: "970436",
      is_business: false,
      recipient: { account_no: "0011001234567", bank_no: "970436", bank_name: "Vietcombank", country: "VN" },
    });
  });

  it("keeps bank keys out of the recipient of rail corridors", () => {
    const result = validateLookupRequest(valid("BR"));
    expect(result.ok && result.value.recipient).toEqual({ account_no: "52998224725", country: "BR" });
  });

  it("carries a GH prefix warning and suggestion through", () => {
    const result = validateLookupRequest(valid("GH", { payment_destination_code: "TELECEL" }));
    expect(result.ok && result.value).toMatchObject({
      payment_destination_code: "TELECEL",
      warnings: [{ code: "NETWORK_PREFIX_MISMATCH" }],
      suggested_values: { payment_destination_code: "MTN" },
    });
  });

  it("normalises case and whitespace: country, currency, method, code", () => {
    const result = validateLookupRequest({
      customer_id: " cus_123 ",
      country_code: " br ",
      currency: "brl",
      payment_method: "PAYMENT_KEY",
      payment_destination: "  Pagamentos@Example.com ",
      payment_destination_code: "pix",
    });
    expect(result.ok && result.value).toMatchObject({
      country_code: "BR",
      currency: "BRL",
      payment_method: "payment_key",
      destination_type: "PIX_EMAIL",
      payment_destination: "pagamentos@example.com",
      payment_destination_code: "PIX",
    });
  });

  it.each([
    ["AR", { payment_destination_code: "CBU" }],
    ["NG", { recipient: { name_first: "X" }, account_type: "SAVINGS" }],
    ["BR", { account_reference: "ignored" }],
  ])("ignores fields %s does not use: %j", (country, extra) => {
    expect(validateLookupRequest(valid(country, extra)).ok).toBe(true);
  });
});

describe("validateLookupRequest: check 1, EMV QR payloads go to decodeQr", () => {
  it("flags a QR in payment_destination before anything else", () => {
    expectError({ payment_destination: PIX_QR }, "USE_DECODE_QR", "payment_destination");
  });

  it("flags a QR in merchant_id", () => {
    expectError(valid("VN", { merchant_id: VIET_QR }), "USE_DECODE_QR", "merchant_id");
  });

  it("does not flag a CVU that starts with 000201", () => {
    const result = validateLookupRequest(valid("AR", { payment_destination: "0002010100000123456789" }));
    expect(!result.ok && result.error.code).not.toBe("USE_DECODE_QR");
  });
});

describe("validateLookupRequest: check 2, customer_id", () => {
  it.each([[undefined], [""], ["   "]])("requires customer_id (%j)", (customerId) => {
    expectError(valid("AR", { customer_id: customerId }), "MISSING_REQUIRED_FIELD", "customer_id");
  });
});

describe("validateLookupRequest: check 3, country_code", () => {
  it.each([
    [undefined, "MISSING_REQUIRED_FIELD"],
    ["", "MISSING_REQUIRED_FIELD"],
    ["ARG", "INVALID_FIELD"],
    ["A1", "INVALID_FIELD"],
    ["US", "UNSUPPORTED_COUNTRY"],
    ["MX", "UNSUPPORTED_COUNTRY"],
  ])("%j -> %s", (country, code) => {
    expectError(valid("AR", { country_code: country }), code, "country_code");
  });

  it("checks the country before the payment method", () => {
    expectError({ ...customer, country_code: "US" }, "UNSUPPORTED_COUNTRY", "country_code");
  });
});

describe("validateLookupRequest: check 4, currency", () => {
  it.each([
    ["AR", "USD"],
    ["BR", "ARS"],
    ["VN", "USD"],
    ["KE", "kes1"],
  ])("%s refuses currency %s", (country, currency) => {
    expectError(valid(country, { currency }), "INVALID_FIELD", "currency");
  });

  it.each([
    ["UG", "UGX"],
    ["ZM", "zmw"],
  ])("%s accepts its own currency %s", (country, currency) => {
    expect(validateLookupRequest(valid(country, { currency })).ok).toBe(true);
  });
});

describe("validateLookupRequest: checks 5–6, contract and payment_method", () => {
  it.each(["AR", "BR", "PE", "BO", "CO", "NG", "GH", "ZM", "KE", "TZ", "UG"])(
    "%s requires payment_method",
    (country) => {
      expectError(valid(country, { payment_method: undefined }), "MISSING_REQUIRED_FIELD", "payment_method");
    },
  );

  it.each([
    ["AR", "ewallet"],
    ["BR", "bank_transfer"],
    ["CO", "ewallet"],
    ["PE", "payment_key"],
    ["BO", "payment_key"],
    ["NG", "ewallet"],
    ["GH", "payment_key"],
    ["ZM", "ewallet"],
    ["KE", "bank_transfer"],
    ["UG", "ewallet"],
    ["AR", "card"],
  ])("%s refuses payment_method %s", (country, method) => {
    expectError(valid(country, { payment_method: method }), "INVALID_PAYMENT_METHOD", "payment_method");
  });

  it.each(["AR", "BR", "PE", "BO", "CO", "NG", "GH", "ZM", "KE", "UG"])(
    "%s requires payment_destination",
    (country) => {
      expectError(
        valid(country, { payment_destination: undefined }),
        "MISSING_REQUIRED_FIELD",
        "payment_destination",
      );
    },
  );

  it("checks payment_method before payment_destination", () => {
    expectError(
      valid("AR", { payment_method: undefined, payment_destination: undefined }),
      "MISSING_REQUIRED_FIELD",
      "payment_method",
    );
  });

  it.each([
    ["KE", "123456"],
    ["TZ", "12345678"],
  ])("%s merchant contract: merchant_id alone is enough", (country, merchantId) => {
    const result = validateLookupRequest({ ...customer, country_code: country, merchant_id: merchantId });
    expect(result).toMatchObject({
      ok: true,
      value: {
        destination_type: "TILL",
        merchant_id: merchantId,
        payment_type: "till",
        is_dynamic: true,
        is_business: true,
        merchant_info: {
          merchant_id: merchantId,
          country_code: country,
          payment_type: "till",
          display_name: "",
        },
      },
    });
  });

  it("KE merchant contract: paybill with a bill reference", () => {
    const result = validateLookupRequest({
      ...customer,
      country_code: "KE",
      merchant_id: "444174",
      account_reference: "INV12345",
    });
    expect(result.ok && result.value).toMatchObject({
      destination_type: "PAYBILL",
      payment_type: "paybill",
      account_reference: "INV12345",
      merchant_info: { payment_type: "paybill", account_reference: "INV12345" },
    });
  });

  it("KE merchant contract: the same number in both fields is fine", () => {
    expect(validateLookupRequest(valid("KE", { merchant_id: "123456" })).ok).toBe(true);
  });

  it("KE: two different numbers are refused", () => {
    expectError(valid("KE", { merchant_id: "654321" }), "INVALID_FIELD", "merchant_id");
  });

  it("KE: neither merchant_id nor payment_destination", () => {
    expectError({ ...customer, country_code: "KE" }, "MISSING_REQUIRED_FIELD", "merchant_id");
  });

  it("KE merchant contract: payment_method, when sent, must be payment_key", () => {
    expectError(
      { ...customer, country_code: "KE", merchant_id: "123456", payment_method: "ewallet" },
      "INVALID_PAYMENT_METHOD",
      "payment_method",
    );
    expect(
      validateLookupRequest({
        ...customer,
        country_code: "KE",
        merchant_id: "123456",
        payment_method: "payment_key",
      }).ok,
    ).toBe(true);
  });

  it("UG has no merchant contract: merchant_id alone leaves payment_destination missing", () => {
    const result = expectError(
      { ...customer, country_code: "UG", payment_method: "payment_key", merchant_id: "123456" },
      "MISSING_REQUIRED_FIELD",
      "payment_destination",
    );
    expect(!result.ok && result.error.message).toContain("merchant_id is for KE, TZ and VN");
  });

  it("VN requires merchant_id, even when payment_destination is sent", () => {
    expectError(
      { ...customer, country_code: "VN", payment_destination: "0011001234567", account_reference: "970436" },
      "MISSING_REQUIRED_FIELD",
      "merchant_id",
    );
  });

  it("VN: payment_method, when sent, must be bank_transfer", () => {
    expectError(valid("VN", { payment_method: "payment_key" }), "INVALID_PAYMENT_METHOD", "payment_method");
    expect(validateLookupRequest(valid("VN", { payment_method: "bank_transfer" })).ok).toBe(true);
  });
});

describe("validateLookupRequest: check 7, payment_destination_code", () => {
  it.each(["BR", "PE", "CO", "BO", "NG", "GH", "ZM"])("%s requires payment_destination_code", (country) => {
    expectError(
      valid(country, { payment_destination_code: undefined }),
      "MISSING_REQUIRED_FIELD",
      "payment_destination_code",
    );
  });

  it.each([
    ["BR", "SPEI"],
    ["PE", "TUNKI"],
    ["CO", "PIX"],
    ["KE", "MPESA"],
    ["TZ", "LIPA"],
    ["UG", "MOMO"],
    ["BO", "99"],
    ["NG", "999"],
    ["GH", "GLO"],
    ["ZM", "MTN"],
  ])("%s refuses code %s", (country, code) => {
    expectError(
      valid(country, { payment_destination_code: code }),
      "INVALID_DESTINATION_CODE",
      "payment_destination_code",
    );
  });

  it.each([
    ["PE", "plin", "PLIN"],
    ["KE", "till", "TILL"],
    ["NG", "000013", "000013"],
    ["GH", "vodafone", "TELECEL"],
  ])("%s accepts code %s as %s", (country, code, canonical) => {
    const result = validateLookupRequest(valid(country, { payment_destination_code: code }));
    expect(result.ok && result.value.payment_destination_code).toBe(canonical);
  });

  it("KE/TZ/UG codes are optional", () => {
    for (const country of ["KE", "TZ", "UG"]) expect(validateLookupRequest(valid(country)).ok).toBe(true);
  });

  it("checks the code before the destination", () => {
    expectError(
      valid("BR", { payment_destination_code: "SPEI", payment_destination: "junk" }),
      "INVALID_DESTINATION_CODE",
      "payment_destination_code",
    );
  });
});

describe("validateLookupRequest: BO extra fields", () => {
  it.each<[LookupRequestInput, string, string]>([
    [{ account_type: undefined }, "MISSING_REQUIRED_FIELD", "account_type"],
    [{ account_type: "CURRENT" }, "INVALID_FIELD", "account_type"],
    [{ recipient: undefined }, "MISSING_REQUIRED_FIELD", "recipient"],
    [
      { recipient: { name_first: " ", name_last: "Pérez", ic_number: "1234567" } },
      "MISSING_REQUIRED_FIELD",
      "recipient.name_first",
    ],
    [
      { recipient: { name_first: "Juan", ic_number: "1234567" } },
      "MISSING_REQUIRED_FIELD",
      "recipient.name_last",
    ],
    [
      { recipient: { name_first: "Juan", name_last: "Pérez" } },
      "MISSING_REQUIRED_FIELD",
      "recipient.ic_number",
    ],
    [
      { recipient: { name_first: "Juan", name_last: "Pérez", ic_number: "12345678901" } },
      "INVALID_FIELD",
      "recipient.ic_number",
    ],
  ])("%j -> %s on %s", (overrides, code, field) => {
    expectError(valid("BO", overrides), code, field);
  });

  it("checks account_type and recipient before the account number", () => {
    expectError(
      valid("BO", { account_type: undefined, payment_destination: "1" }),
      "MISSING_REQUIRED_FIELD",
      "account_type",
    );
  });
});

describe("validateLookupRequest: check 8, the destination itself", () => {
  it.each<[string, LookupRequestInput, string]>([
    ["AR", { payment_destination: "0110012920000091344978" }, "second check digit"],
    ["AR", { payment_destination: "+5491123456789" }, "phone numbers are not payment keys in Argentina"],
    ["AR", { payment_destination: "juan_perez" }, "Invalid alias"],
    ["BR", { payment_destination: "52998224724" }, "Invalid CPF"],
    ["BR", { payment_destination: "11222333000182" }, "Invalid CNPJ"],
    ["BR", { payment_destination: "+5520987654321" }, "DDD"],
    ["BR", { payment_destination: "123e4567e89b12d3a456426655440000" }, "EVP"],
    ["PE", { payment_destination: "812345678" }, "starts with 9"],
    ["BO", { payment_destination: "401234567" }, "10 digits"],
    ["CO", { payment_destination: "tienda123" }, "an alias starts with @"],
    ["NG", { payment_destination: "1234567895" }, "check digit"],
    ["GH", { payment_destination: "0231234567" }, "prefix 023"],
    ["ZM", { payment_destination: "+260961234567" }, "bank accounts only"],
    ["KE", { payment_destination: "1234" }, "5 to 7 digits"],
    ["UG", { payment_destination: "12A456" }, "5 to 8 digits"],
  ])("%s refuses %j (%s)", (country, overrides, message) => {
    const result = expectError(valid(country, overrides), "INVALID_DESTINATION", "payment_destination");
    expect(!result.ok && result.error.message).toContain(message);
  });

  it.each<[LookupRequestInput, string, string]>([
    [{ merchant_id: "1234" }, "INVALID_DESTINATION", "merchant_id"],
    [
      { merchant_id: "444174", payment_destination_code: "PAYBILL" },
      "MISSING_REQUIRED_FIELD",
      "account_reference",
    ],
    [
      { merchant_id: "123456", payment_destination_code: "TILL", account_reference: "X" },
      "INVALID_FIELD",
      "account_reference",
    ],
    [{ merchant_id: "444174", account_reference: "ABCDEFGHIJKLMNO" }, "INVALID_FIELD", "account_reference"],
  ])("KE merchant contract refuses %j", (overrides, code, field) => {
    expectError({ ...customer, country_code: "KE", ...overrides }, code, field);
  });

  it.each<[LookupRequestInput, string, string]>([
    [{ account_reference: undefined }, "MISSING_REQUIRED_FIELD", "account_reference"],
    [{ account_reference: "97043" }, "INVALID_FIELD", "account_reference"],
    [{ account_reference: "999999" }, "INVALID_DESTINATION_CODE", "account_reference"],
    [{ merchant_id: "12345678901234567890" }, "INVALID_DESTINATION", "merchant_id"],
    [{ merchant_id: "00110A1234567" }, "INVALID_DESTINATION", "merchant_id"],
  ])("VN refuses %j", (overrides, code, field) => {
    expectError(valid("VN", overrides), code, field);
  });
});
