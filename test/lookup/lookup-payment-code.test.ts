import { SANDBOX_QR_PAYLOADS } from "@payouts/lookup/testdata/sandbox-qr-samples";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  createLookupPartner,
  errorOf,
  expectPending,
  type LookupPartner,
  lookupPaymentCode,
  memberText,
  putPricingData,
  SENDER_MAP,
  transactionCount,
} from "./lookup-fixtures.js";

/** POST /lookupPaymentCode through the real gateway, services and ledger on a fresh PostgreSQL database. */

let platform: TestPlatform;
let partner: LookupPartner;
let refusedOnly: LookupPartner;

beforeAll(async () => {
  platform = await startTestPlatform();
  await putPricingData(platform);
  partner = await createLookupPartner(platform, { fees: { percent: "1.5", fixed_usd: "0.30" } });
  refusedOnly = await createLookupPartner(platform);
});

afterAll(async () => {
  await platform?.close();
});

const MERCHANT_KEYS = ["merchant_id", "merchant_name", "payment_type", "merchant_info"];

const BO_RECIPIENT = { name_first: "Juan", name_last: "Mamani", ic_number: "1234567 LP" };

/** One valid destination per corridor and destination kind: [name, body, currency, destination_type]. */
const CORRIDOR_CASES: ReadonlyArray<readonly [string, Record<string, unknown>, string, string]> = [
  [
    "AR CBU",
    { country_code: "AR", payment_method: "payment_key", payment_destination: "0110012920000091344977" },
    "ARS",
    "CBU",
  ],
  [
    "AR CVU",
    { country_code: "AR", payment_method: "payment_key", payment_destination: "0000003100062244154712" },
    "ARS",
    "CVU",
  ],
  [
    "AR alias",
    { country_code: "ar", payment_method: "payment_key", payment_destination: "Mi.Alias.Prueba" },
    "ARS",
    "ALIAS",
  ],
  [
    "BR CPF",
    {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "529.982.247-25",
      payment_destination_code: "PIX",
    },
    "BRL",
    "PIX_CPF",
  ],
  [
    "BR CNPJ",
    {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "11.222.333/0001-81",
      payment_destination_code: "PIX",
    },
    "BRL",
    "PIX_CNPJ",
  ],
  [
    "BR alphanumeric CNPJ",
    {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "12ABC34501DE35",
      payment_destination_code: "pix",
    },
    "BRL",
    "PIX_CNPJ",
  ],
  [
    "BR phone",
    {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "+5511987654321",
      payment_destination_code: "PIX",
    },
    "BRL",
    "PIX_PHONE",
  ],
  [
    "BR e-mail",
    {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "Loja@Example.com",
      payment_destination_code: "PIX",
    },
    "BRL",
    "PIX_EMAIL",
  ],
  [
    "BR random key",
    {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "123e4567-e89b-12d3-a456-426655440000",
      payment_destination_code: "PIX",
    },
    "BRL",
    "PIX_EVP",
  ],
  [
    "PE Yape",
    {
      country_code: "PE",
      payment_method: "ewallet",
      payment_destination: "912345678",
      payment_destination_code: "YAPE",
    },
    "PEN",
    "PE_MOBILE",
  ],
  [
    "PE Plin",
    {
      country_code: "PE",
      payment_method: "ewallet",
      payment_destination: "+51 987 654 321",
      payment_destination_code: "PLIN",
    },
    "PEN",
    "PE_MOBILE",
  ],
  [
    "BO bank account with recipient",
    {
      country_code: "BO",
      payment_method: "bank_transfer",
      payment_destination: "4012345678",
      payment_destination_code: "1",
      account_type: "SAVINGS",
      recipient: BO_RECIPIENT,
    },
    "BOB",
    "BO_ACCOUNT",
  ],
  [
    "CO Bre-B mobile",
    {
      country_code: "CO",
      payment_method: "payment_key",
      payment_destination: "3001234567",
      payment_destination_code: "BREB",
    },
    "COP",
    "BREB_MOBILE",
  ],
  [
    "CO Bre-B alias",
    {
      country_code: "CO",
      payment_method: "payment_key",
      payment_destination: "@tienda123",
      payment_destination_code: "BREB",
    },
    "COP",
    "BREB_ALIAS",
  ],
  [
    "NG bank (NUBAN)",
    {
      country_code: "NG",
      payment_method: "bank_transfer",
      payment_destination: "0000000018",
      payment_destination_code: "058",
    },
    "NGN",
    "NUBAN",
  ],
  [
    "NG wallet",
    {
      country_code: "NG",
      payment_method: "bank_transfer",
      payment_destination: "8012345678",
      payment_destination_code: "100004",
    },
    "NGN",
    "NG_WALLET",
  ],
  [
    "GH bank",
    {
      country_code: "GH",
      payment_method: "bank_transfer",
      payment_destination: "12345678",
      payment_destination_code: "13",
    },
    "GHS",
    "GH_BANK_ACCOUNT",
  ],
  [
    "GH MoMo",
    {
      country_code: "GH",
      payment_method: "bank_transfer",
      payment_destination: "0241234567",
      payment_destination_code: "MTN",
    },
    "GHS",
    "GH_MOMO",
  ],
  [
    "ZM bank",
    {
      country_code: "ZM",
      payment_method: "bank_transfer",
      payment_destination: "0020756300173",
      payment_destination_code: "ZNCOZMLU",
    },
    "ZMW",
    "ZM_BANK_ACCOUNT",
  ],
  ["KE till (merchant contract)", { country_code: "KE", merchant_id: "123456" }, "KES", "TILL"],
  [
    "KE paybill (merchant contract)",
    { country_code: "KE", merchant_id: "444174", account_reference: "INV12345" },
    "KES",
    "PAYBILL",
  ],
  [
    "KE till (typed contract)",
    {
      country_code: "KE",
      payment_method: "payment_key",
      payment_destination: "123456",
      payment_destination_code: "TILL",
    },
    "KES",
    "TILL",
  ],
  [
    "KE paybill (typed contract)",
    {
      country_code: "KE",
      payment_method: "payment_key",
      payment_destination: "444174",
      payment_destination_code: "PAYBILL",
      account_reference: "INV12345",
    },
    "KES",
    "PAYBILL",
  ],
  ["TZ till (merchant contract)", { country_code: "TZ", merchant_id: "12345678" }, "TZS", "TILL"],
  [
    "TZ paybill (typed contract)",
    {
      country_code: "TZ",
      payment_method: "payment_key",
      payment_destination: "555123",
      account_reference: "ACC42",
    },
    "TZS",
    "PAYBILL",
  ],
  [
    "UG till (typed contract)",
    {
      country_code: "UG",
      payment_method: "payment_key",
      payment_destination: "123456",
      payment_destination_code: "TILL",
    },
    "UGX",
    "TILL",
  ],
  [
    "VN account (merchant contract)",
    { country_code: "VN", merchant_id: "0011001234567", account_reference: "970436" },
    "VND",
    "VN_ACCOUNT",
  ],
];

describe("a valid destination in every corridor", () => {
  it.each(CORRIDOR_CASES)(
    "%s → 200, lookup result and a PENDING transaction",
    async (_name, body, currency, type) => {
      const res = await lookupPaymentCode(platform, partner, body);
      expect(res.status, res.text).toBe(200);
      const result = res.json;
      const country = String(body.country_code).toUpperCase();
      expect(result).toMatchObject({ country, currency, partner_transaction_id: "", sender: SENDER_MAP });
      expect(result.amount).toBe(0);
      expect(memberText(res.text, "amount")).toBe(currency === "VND" || currency === "UGX" ? "0" : "0.00");
      expect(result.missing_fields).toContainEqual({ field: "amount", type: "numeric", label: "Amount" });
      for (const key of ["amount_usd", "fee", "percentage_fee", "fixed_fee"])
        expect(result).not.toHaveProperty(key);
      expect(typeof result.is_dynamic).toBe("boolean");
      expect(typeof result.is_business).toBe("boolean");
      expect(typeof result.merchant).toBe("string");
      expect(result.suggested_values).toEqual({});
      expect(result.recipient.account_no).toEqual(expect.any(String));
      expect(result.recipient.name).toEqual(expect.any(String));
      const tx = await expectPending(platform, partner, result.tx_id);
      expect(tx.qr_data.destination_type).toBe(type);
      expect(tx.qr_data.recipient).toEqual(result.recipient);
      expect(tx.currency).toBe(currency);
    },
  );

  it("KE till: is_dynamic and is_business true, payment_type till, merchant_info filled", async () => {
    const res = await lookupPaymentCode(platform, partner, { country_code: "KE", merchant_id: "123456" });
    expect(res.status, res.text).toBe(200);
    const result = res.json;
    expect(result).toMatchObject({
      is_dynamic: true,
      is_business: true,
      payment_type: "till",
      merchant_id: "123456",
    });
    expect(result.merchant_name).toEqual(expect.any(String));
    expect(result.merchant).toBe(result.merchant_name);
    expect(result.merchant_info).toEqual({
      merchant_id: "123456",
      display_name: result.merchant_name,
      country_code: "KE",
      payment_type: "till",
      lipa_number: "123456",
    });
  });

  it("KE paybill: payment_type paybill with the account reference in merchant_info", async () => {
    const res = await lookupPaymentCode(platform, partner, {
      country_code: "KE",
      merchant_id: "444174",
      account_reference: "INV12345",
    });
    expect(res.json).toMatchObject({
      payment_type: "paybill",
      merchant_info: { payment_type: "paybill", account_reference: "INV12345", lipa_number: "444174" },
    });
    expect(res.json.missing_fields).toEqual([{ field: "amount", type: "numeric", label: "Amount" }]);
  });

  it("VN: recipient carries name, name_first, name_last, account_no and bank_no", async () => {
    const res = await lookupPaymentCode(platform, partner, {
      country_code: "VN",
      merchant_id: "0011001234567",
      account_reference: "970436",
    });
    const { recipient } = res.json;
    expect(recipient).toMatchObject({ account_no: "0011001234567", bank_no: "970436" });
    for (const key of ["name", "name_first", "name_last"]) expect(recipient[key]).toMatch(/\S/);
    expect(recipient.name).toContain(recipient.name_first);
  });

  it("NG: recipient carries account_no and bank_no, and the amount can be nonzero", async () => {
    const res = await lookupPaymentCode(platform, partner, {
      country_code: "NG",
      payment_method: "bank_transfer",
      payment_destination: "0000000018",
      payment_destination_code: "058",
      amount: 15000,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.recipient).toMatchObject({ account_no: "0000000018", bank_no: "000013" });
    expect(memberText(res.text, "amount")).toBe("15000.00");
    expect(memberText(res.text, "amount_usd")).toBe("10.00");
    expect(res.json.missing_fields).toEqual([]);
  });

  it("leaves merchant fields out where they do not apply", async () => {
    const res = await lookupPaymentCode(platform, partner, {
      country_code: "PE",
      payment_method: "ewallet",
      payment_destination: "912345678",
      payment_destination_code: "YAPE",
    });
    for (const key of MERCHANT_KEYS) expect(res.json).not.toHaveProperty(key);
    expect(res.json).toMatchObject({ is_dynamic: false, is_business: false, merchant: "" });
  });

  it("BO: the recipient is the one the partner named", async () => {
    const res = await lookupPaymentCode(platform, partner, CORRIDOR_CASES[11]![1]);
    expect(res.json.recipient).toMatchObject({
      name_first: "Juan",
      name_last: "Mamani",
      name: "Juan Mamani",
    });
  });

  it("echoes partner_transaction_id and stores partner references", async () => {
    const res = await lookupPaymentCode(platform, partner, {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "52998224725",
      payment_destination_code: "PIX",
      partner_transaction_id: "order-2025-0001",
      partner_app_id: "shop_app-01",
      wallet_identifier: "wallet-7",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.partner_transaction_id).toBe("order-2025-0001");
    const tx = await expectPending(platform, partner, res.json.tx_id);
    expect(tx.partner_transaction_id).toBe("order-2025-0001");
  });
});

describe("the legacy qr_string alias", () => {
  const BR = { country_code: "BR", payment_method: "payment_key", payment_destination_code: "PIX" };

  it("carries the destination when payment_destination is absent", async () => {
    const res = await lookupPaymentCode(platform, partner, { ...BR, qr_string: "52998224725" });
    expect(res.status, res.text).toBe(200);
    expect(res.json.recipient.account_no).toBe("52998224725");
  });

  it("loses to payment_destination when both are sent", async () => {
    const res = await lookupPaymentCode(platform, partner, {
      ...BR,
      payment_destination: "11222333000181",
      qr_string: "not a key",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.recipient.account_no).toBe("11222333000181");
  });

  it("is the field named when the destination it carried is refused", async () => {
    const res = await lookupPaymentCode(platform, refusedOnly, { ...BR, qr_string: "52998224726" });
    expect(errorOf(res)).toEqual({ status: 400, code: "INVALID_DESTINATION", field: "qr_string" });
  });
});

describe("amount greater than 0", () => {
  it("prices the transaction: local amount at minor units, USD figures at dp", async () => {
    const body = {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "52998224725",
      payment_destination_code: "PIX",
      amount: 150,
    };
    const res = await lookupPaymentCode(platform, partner, body);
    expect(res.status, res.text).toBe(200);
    // 150 / 5.4 = 27.777…; 1.5 % = 0.41666…; fixed 0.30.
    expect(memberText(res.text, "amount")).toBe("150.00");
    expect(memberText(res.text, "amount_usd")).toBe("27.78");
    expect(memberText(res.text, "percentage_fee")).toBe("0.42");
    expect(memberText(res.text, "fixed_fee")).toBe("0.30");
    expect(memberText(res.text, "fee")).toBe("0.72");
    expect(res.json.missing_fields).toEqual([]);
    const tx = await expectPending(platform, partner, res.json.tx_id);
    expect(tx.amount).toBe(150);

    const precise = await lookupPaymentCode(platform, partner, body, "?dp=4");
    expect(memberText(precise.text, "amount_usd")).toBe("27.7778");
    expect(memberText(precise.text, "percentage_fee")).toBe("0.4167");
    expect(memberText(precise.text, "fee")).toBe("0.7167");
    expect(memberText(precise.text, "amount")).toBe("150.00");
  });

  it("renders a zero-decimal currency without decimals", async () => {
    const res = await lookupPaymentCode(platform, partner, {
      country_code: "VN",
      merchant_id: "0011001234567",
      account_reference: "970436",
      amount: "263000",
    });
    expect(res.status, res.text).toBe(200);
    expect(memberText(res.text, "amount")).toBe("263000");
    expect(memberText(res.text, "amount_usd")).toBe("10.00");
  });

  it("treats amount 0 as no amount", async () => {
    const res = await lookupPaymentCode(platform, partner, {
      country_code: "KE",
      merchant_id: "123456",
      amount: 0,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.missing_fields).toEqual([{ field: "amount", type: "numeric", label: "Amount" }]);
    expect(res.json).not.toHaveProperty("amount_usd");
  });
});

const BR_CPF = {
  country_code: "BR",
  payment_method: "payment_key",
  payment_destination: "52998224725",
  payment_destination_code: "PIX",
};
const BO_OK = CORRIDOR_CASES[11]![1];
const EMV = SANDBOX_QR_PAYLOADS.PIX;

/** Refused requests: [name, body (merged over a valid BR CPF lookup unless `replace`), status, code, field]. */
const REFUSALS: ReadonlyArray<readonly [string, Record<string, unknown>, number, string, string]> = [
  [
    "a sender in the request",
    { ...BR_CPF, sender: { name_first: "Eve" } },
    400,
    "SENDER_NOT_ACCEPTED",
    "sender",
  ],
  ["no customer_id", { ...BR_CPF, customer_id: undefined }, 400, "MISSING_REQUIRED_FIELD", "customer_id"],
  ["an unknown customer", { ...BR_CPF, customer_id: "cus_nobody" }, 400, "CUSTOMER_NOT_FOUND", "customer_id"],
  ["no country_code", { ...BR_CPF, country_code: undefined }, 400, "MISSING_REQUIRED_FIELD", "country_code"],
  ["a three-letter country_code", { ...BR_CPF, country_code: "BRA" }, 400, "INVALID_FIELD", "country_code"],
  [
    "a country without payouts",
    { ...BR_CPF, country_code: "US" },
    400,
    "UNSUPPORTED_COUNTRY",
    "country_code",
  ],
  ["another corridor's currency", { ...BR_CPF, currency: "USD" }, 400, "INVALID_FIELD", "currency"],
  [
    "no payment_method",
    { ...BR_CPF, payment_method: undefined },
    400,
    "MISSING_REQUIRED_FIELD",
    "payment_method",
  ],
  [
    "no payment_destination",
    { ...BR_CPF, payment_destination: undefined },
    400,
    "MISSING_REQUIRED_FIELD",
    "payment_destination",
  ],
  [
    "an unknown payment_method",
    { ...BR_CPF, payment_method: "cash" },
    400,
    "INVALID_PAYMENT_METHOD",
    "payment_method",
  ],
  [
    "AR with bank_transfer",
    { country_code: "AR", payment_method: "bank_transfer", payment_destination: "0110012920000091344977" },
    400,
    "INVALID_PAYMENT_METHOD",
    "payment_method",
  ],
  [
    "PE with payment_key",
    {
      country_code: "PE",
      payment_method: "payment_key",
      payment_destination: "912345678",
      payment_destination_code: "YAPE",
    },
    400,
    "INVALID_PAYMENT_METHOD",
    "payment_method",
  ],
  [
    "NG with payment_key",
    {
      country_code: "NG",
      payment_method: "payment_key",
      payment_destination: "0000000018",
      payment_destination_code: "058",
    },
    400,
    "INVALID_PAYMENT_METHOD",
    "payment_method",
  ],
  [
    "BR without PIX",
    { ...BR_CPF, payment_destination_code: undefined },
    400,
    "MISSING_REQUIRED_FIELD",
    "payment_destination_code",
  ],
  [
    "BR with TED",
    { ...BR_CPF, payment_destination_code: "TED" },
    400,
    "INVALID_DESTINATION_CODE",
    "payment_destination_code",
  ],
  [
    "PE without a wallet",
    { country_code: "PE", payment_method: "ewallet", payment_destination: "912345678" },
    400,
    "MISSING_REQUIRED_FIELD",
    "payment_destination_code",
  ],
  [
    "PE with BIM",
    {
      country_code: "PE",
      payment_method: "ewallet",
      payment_destination: "912345678",
      payment_destination_code: "BIM",
    },
    400,
    "INVALID_DESTINATION_CODE",
    "payment_destination_code",
  ],
  [
    "CO with PIX",
    {
      country_code: "CO",
      payment_method: "payment_key",
      payment_destination: "3001234567",
      payment_destination_code: "PIX",
    },
    400,
    "INVALID_DESTINATION_CODE",
    "payment_destination_code",
  ],
  [
    "BO without a bank",
    { ...BO_OK, payment_destination_code: undefined },
    400,
    "MISSING_REQUIRED_FIELD",
    "payment_destination_code",
  ],
  [
    "NG with an unknown institution",
    {
      country_code: "NG",
      payment_method: "bank_transfer",
      payment_destination: "0000000018",
      payment_destination_code: "999999",
    },
    400,
    "INVALID_DESTINATION_CODE",
    "payment_destination_code",
  ],
  [
    "GH without an institution",
    { country_code: "GH", payment_method: "bank_transfer", payment_destination: "0241234567" },
    400,
    "MISSING_REQUIRED_FIELD",
    "payment_destination_code",
  ],
  [
    "ZM with a mobile-money network (banks only)",
    {
      country_code: "ZM",
      payment_method: "bank_transfer",
      payment_destination: "0961234567",
      payment_destination_code: "MTN",
    },
    400,
    "INVALID_DESTINATION_CODE",
    "payment_destination_code",
  ],
  [
    "KE with an unknown code",
    {
      country_code: "KE",
      payment_method: "payment_key",
      payment_destination: "123456",
      payment_destination_code: "BUYGOODS",
    },
    400,
    "INVALID_DESTINATION_CODE",
    "payment_destination_code",
  ],
  [
    "BO without account_type",
    { ...BO_OK, account_type: undefined },
    400,
    "MISSING_REQUIRED_FIELD",
    "account_type",
  ],
  [
    "BO with a wrong account_type",
    { ...BO_OK, account_type: "CURRENT" },
    400,
    "INVALID_FIELD",
    "account_type",
  ],
  ["BO without recipient", { ...BO_OK, recipient: undefined }, 400, "MISSING_REQUIRED_FIELD", "recipient"],
  [
    "BO without recipient.name_last",
    { ...BO_OK, recipient: { name_first: "Juan", ic_number: "1234567" } },
    400,
    "MISSING_REQUIRED_FIELD",
    "recipient.name_last",
  ],
  [
    "BO without recipient.ic_number",
    { ...BO_OK, recipient: { name_first: "Juan", name_last: "Mamani" } },
    400,
    "MISSING_REQUIRED_FIELD",
    "recipient.ic_number",
  ],
  ["KE without any destination", { country_code: "KE" }, 400, "MISSING_REQUIRED_FIELD", "merchant_id"],
  [
    "VN without merchant_id",
    { country_code: "VN", account_reference: "970436" },
    400,
    "MISSING_REQUIRED_FIELD",
    "merchant_id",
  ],
  [
    "VN without the BIN",
    { country_code: "VN", merchant_id: "0011001234567" },
    400,
    "MISSING_REQUIRED_FIELD",
    "account_reference",
  ],
  [
    "KE paybill without account_reference",
    { country_code: "KE", merchant_id: "444174", payment_destination_code: "PAYBILL" },
    400,
    "MISSING_REQUIRED_FIELD",
    "account_reference",
  ],
  [
    "KE two different numbers",
    {
      country_code: "KE",
      merchant_id: "123456",
      payment_destination: "654321",
      payment_method: "payment_key",
    },
    400,
    "INVALID_FIELD",
    "merchant_id",
  ],
  [
    "an AR phone number",
    { country_code: "AR", payment_method: "payment_key", payment_destination: "+54 9 11 2345-6789" },
    400,
    "INVALID_DESTINATION",
    "payment_destination",
  ],
  [
    "an AR CBU with a wrong check digit",
    { country_code: "AR", payment_method: "payment_key", payment_destination: "0110012920000091344978" },
    400,
    "INVALID_DESTINATION",
    "payment_destination",
  ],
  [
    "a CPF with a wrong check digit",
    { ...BR_CPF, payment_destination: "52998224726" },
    400,
    "INVALID_DESTINATION",
    "payment_destination",
  ],
  [
    "a NUBAN with a wrong check digit",
    {
      country_code: "NG",
      payment_method: "bank_transfer",
      payment_destination: "1234567895",
      payment_destination_code: "058",
    },
    400,
    "INVALID_DESTINATION",
    "payment_destination",
  ],
  [
    "a Peruvian landline",
    {
      country_code: "PE",
      payment_method: "ewallet",
      payment_destination: "014123456",
      payment_destination_code: "YAPE",
    },
    400,
    "INVALID_DESTINATION",
    "payment_destination",
  ],
  [
    "a KE till of 4 digits",
    { country_code: "KE", merchant_id: "1234" },
    400,
    "INVALID_DESTINATION",
    "merchant_id",
  ],
  [
    "an EMV payload in payment_destination",
    { ...BR_CPF, payment_destination: EMV },
    400,
    "USE_DECODE_QR",
    "payment_destination",
  ],
  [
    "an EMV payload in qr_string",
    { ...BR_CPF, payment_destination: undefined, qr_string: EMV },
    400,
    "USE_DECODE_QR",
    "qr_string",
  ],
  [
    "an EMV payload in merchant_id",
    { country_code: "KE", merchant_id: SANDBOX_QR_PAYLOADS.KE_QR },
    400,
    "USE_DECODE_QR",
    "merchant_id",
  ],
  [
    "a sandbox not-found CPF",
    { ...BR_CPF, payment_destination: "00000000191" },
    400,
    "UNKNOWN_DESTINATION",
    "payment_destination",
  ],
  [
    "a sandbox not-found till",
    { country_code: "KE", merchant_id: "000000" },
    400,
    "UNKNOWN_DESTINATION",
    "merchant_id",
  ],
  [
    "a sandbox not-found NUBAN",
    {
      country_code: "NG",
      payment_method: "bank_transfer",
      payment_destination: "9999999990",
      payment_destination_code: "058",
    },
    400,
    "UNKNOWN_DESTINATION",
    "payment_destination",
  ],
  [
    "a sandbox not-found NUBAN with an amount",
    {
      country_code: "NG",
      payment_method: "bank_transfer",
      payment_destination: "9999999990",
      payment_destination_code: "058",
      amount: 5000,
    },
    400,
    "UNKNOWN_DESTINATION",
    "payment_destination",
  ],
  ["an amount below the corridor minimum", { ...BR_CPF, amount: 0.5 }, 400, "AMOUNT_OUT_OF_RANGE", "amount"],
  ["a negative amount", { ...BR_CPF, amount: -1 }, 400, "INVALID_AMOUNT", "amount"],
  ["an amount that is not a number", { ...BR_CPF, amount: "ten" }, 400, "INVALID_FIELD", "amount"],
  ["a boolean amount", { ...BR_CPF, amount: true }, 400, "INVALID_FIELD", "amount"],
  [
    "a partner_app_id with a space",
    { ...BR_CPF, partner_app_id: "my app" },
    400,
    "INVALID_FIELD",
    "partner_app_id",
  ],
  [
    "a partner_app_id of 65 characters",
    { ...BR_CPF, partner_app_id: "a".repeat(65) },
    400,
    "INVALID_FIELD",
    "partner_app_id",
  ],
  ["an empty partner_app_id", { ...BR_CPF, partner_app_id: "" }, 400, "INVALID_FIELD", "partner_app_id"],
  [
    "a numeric payment_destination",
    { ...BR_CPF, payment_destination: 52998224725 },
    400,
    "INVALID_FIELD",
    "payment_destination",
  ],
  [
    "a recipient that is not an object",
    { ...BO_OK, recipient: "Juan Mamani" },
    400,
    "INVALID_FIELD",
    "recipient",
  ],
  [
    "a numeric recipient.ic_number",
    { ...BO_OK, recipient: { ...BO_RECIPIENT, ic_number: 1234567 } },
    400,
    "INVALID_FIELD",
    "recipient.ic_number",
  ],
];

describe("refused requests", () => {
  it.each(REFUSALS)("%s", async (_name, body, status, code, field) => {
    const res = await lookupPaymentCode(platform, refusedOnly, body);
    expect(errorOf(res), res.text).toEqual({ status, code, field });
    expect(res.json.request_id).toEqual(expect.any(String));
  });

  it("refuses another partner's customer as not found, with the 400 of a bad lookup", async () => {
    const res = await platform.partner(refusedOnly, "POST", "/lookupPaymentCode", {
      ...BR_CPF,
      customer_id: partner.customerId,
    });
    expect(errorOf(res)).toEqual({ status: 400, code: "CUSTOMER_NOT_FOUND", field: "customer_id" });
  });

  it("refuses a dp out of range before anything else", async () => {
    const res = await lookupPaymentCode(platform, refusedOnly, BR_CPF, "?dp=11");
    expect(errorOf(res)).toEqual({ status: 400, code: "INVALID_FIELD", field: "dp" });
  });

  it("requires credentials", async () => {
    const res = await platform.partner(undefined, "POST", "/lookupPaymentCode", BR_CPF);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("AUTHENTICATION_REQUIRED");
  });

  it("leaves no transaction behind, whatever the reason", async () => {
    expect(await transactionCount(platform, refusedOnly)).toBe(0);
  });
});
