import { encodeEmvRecord } from "@payouts/lookup/internal/domain/qr/encode-emv";
import { SANDBOX_QR_FIELDS, SANDBOX_QR_PAYLOADS } from "@payouts/lookup/testdata/sandbox-qr-samples";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  createLookupPartner,
  decodeQr,
  errorOf,
  expectPending,
  type LookupPartner,
  memberText,
  putPricingData,
  SENDER_MAP,
  transactionCount,
} from "./lookup-fixtures.js";

/** POST /decodeQr through the real gateway, services and ledger on a fresh PostgreSQL database. */

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

const AMOUNT_MISSING = { field: "amount", type: "numeric", label: "Amount" };

/** Published codes (the Central Bank of Brazil's manual example, a real VietQR transfer). */
const BCB_STATIC_PIX =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
const PUBLISHED_VIETQR =
  "00020101021238570010A00000072701270006970415011300110019324180208QRIBFTTA530370454061200005802VN62170813ung ho lu lut6304C15C";
const DYNAMIC_PIX =
  "00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB";

describe("the sandbox QR samples", () => {
  it("Pix: static key with an amount → priced PENDING transaction", async () => {
    const res = await decodeQr(platform, partner, { qr_string: SANDBOX_QR_PAYLOADS.PIX });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      is_dynamic: false,
      is_business: false,
      merchant: "LOJA EXEMPLO LTDA",
      country: "BR",
      currency: "BRL",
      partner_transaction_id: "",
      missing_fields: [],
      sender: SENDER_MAP,
      recipient: { name: "LOJA EXEMPLO LTDA" },
    });
    expect(memberText(res.text, "amount")).toBe("150.00");
    expect(memberText(res.text, "amount_usd")).toBe("27.78");
    expect(memberText(res.text, "fee")).toBe("0.72");
    const tx = await expectPending(platform, partner, res.json.tx_id);
    expect(tx.amount).toBe(150);
    expect(tx.qr_data).toMatchObject({
      destination_type: "PIX_EVP",
      payment_destination: "123e4567-e89b-12d3-a456-426655440000",
    });
  });

  it("VietQR: account transfer with an amount; recipient account_no and bank_no", async () => {
    const res = await decodeQr(platform, partner, { qr_string: SANDBOX_QR_PAYLOADS.VIETQR });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      is_dynamic: true,
      country: "VN",
      currency: "VND",
      recipient: { account_no: "0011001234567", bank_no: "970436" },
      missing_fields: [],
    });
    expect(memberText(res.text, "amount")).toBe("150000");
    expect(memberText(res.text, "amount_usd")).toBe("5.70");
    await expectPending(platform, partner, res.json.tx_id);
  });

  it("Argentina interoperable QR: a business with its CUIT and no amount", async () => {
    const res = await decodeQr(platform, partner, { qr_string: SANDBOX_QR_PAYLOADS.AR_INTEROPERABLE });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      is_business: true,
      merchant: "ALMACEN EJEMPLO SA",
      merchant_id: "30712345671",
      country: "AR",
      currency: "ARS",
      amount: 0,
      missing_fields: [AMOUNT_MISSING],
    });
    expect(res.json).not.toHaveProperty("amount_usd");
    await expectPending(platform, partner, res.json.tx_id);
  });

  it.each([
    ["KE_QR", "KE", "KES", "174379", "EXAMPLE SUPERMARKET"],
    ["TANQR", "TZ", "TZS", "12345678", "DUKA LA MFANO"],
  ] as const)("%s: a till with merchant fields", async (scheme, country, currency, till, name) => {
    const res = await decodeQr(platform, partner, { qr_string: SANDBOX_QR_PAYLOADS[scheme] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      is_business: true,
      merchant: name,
      merchant_id: till,
      merchant_name: name,
      payment_type: "till",
      merchant_info: { merchant_id: till, display_name: name, country_code: country, payment_type: "till" },
      country,
      currency,
      missing_fields: [AMOUNT_MISSING],
    });
    const tx = await expectPending(platform, partner, res.json.tx_id);
    expect(tx.qr_data.destination_type).toBe("TILL");
  });
});

describe("published QR strings", () => {
  it("the BCB manual's static Pix example", async () => {
    const res = await decodeQr(platform, partner, { qr_string: BCB_STATIC_PIX });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      merchant: "Fulano de Tal",
      country: "BR",
      missing_fields: [AMOUNT_MISSING],
    });
    await expectPending(platform, partner, res.json.tx_id);
  });

  it("a real VietQR transfer code, amount 120000 VND", async () => {
    const res = await decodeQr(platform, partner, { qr_string: PUBLISHED_VIETQR });
    expect(res.status, res.text).toBe(200);
    expect(res.json.recipient).toMatchObject({ account_no: "0011001932418", bank_no: "970415" });
    expect(memberText(res.text, "amount")).toBe("120000");
  });

  it("a dynamic Pix code: is_dynamic, amount still to be given", async () => {
    const res = await decodeQr(platform, partner, { qr_string: DYNAMIC_PIX });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      is_dynamic: true,
      merchant: "EMPRESA",
      missing_fields: [AMOUNT_MISSING],
    });
    const tx = await expectPending(platform, partner, res.json.tx_id);
    expect(tx.qr_data.payment_destination).toBe("pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99");
  });
});

describe("amounts", () => {
  it("takes the partner's amount for a QR without one", async () => {
    const res = await decodeQr(
      platform,
      partner,
      { qr_string: SANDBOX_QR_PAYLOADS.KE_QR, amount: 1292.5 },
      "?dp=3",
    );
    expect(res.status, res.text).toBe(200);
    expect(memberText(res.text, "amount")).toBe("1292.50");
    expect(memberText(res.text, "amount_usd")).toBe("10.000");
    expect(memberText(res.text, "fixed_fee")).toBe("0.300");
    expect(res.json.missing_fields).toEqual([]);
  });

  it("accepts the QR's own amount repeated by the partner", async () => {
    const res = await decodeQr(platform, partner, { qr_string: SANDBOX_QR_PAYLOADS.PIX, amount: "150" });
    expect(res.status, res.text).toBe(200);
    expect(memberText(res.text, "amount")).toBe("150.00");
  });

  it("echoes partner_transaction_id", async () => {
    const res = await decodeQr(platform, partner, {
      qr_string: SANDBOX_QR_PAYLOADS.TANQR,
      partner_transaction_id: "qr-order-9",
      partner_app_id: "pos_terminal-3",
    });
    expect(res.json.partner_transaction_id).toBe("qr-order-9");
  });
});

describe("KE paybill QR", () => {
  const paybill = (reference: string) =>
    encodeEmvRecord({ ...SANDBOX_QR_FIELDS.KE_QR, "62": [["01", reference]] });

  it("with a bill reference: merchant_info carries it", async () => {
    const res = await decodeQr(platform, partner, { qr_string: paybill("INV77") });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      payment_type: "paybill",
      merchant_info: { payment_type: "paybill", account_reference: "INV77" },
      missing_fields: [AMOUNT_MISSING],
    });
  });

  it("with *** (the payer gives the reference): account_reference is a missing field", async () => {
    const res = await decodeQr(platform, partner, { qr_string: paybill("***") });
    expect(res.status, res.text).toBe(200);
    expect(res.json.payment_type).toBe("paybill");
    expect(res.json.missing_fields).toEqual([
      AMOUNT_MISSING,
      { field: "account_reference", type: "string", label: "Account reference" },
    ]);
  });
});

const SINGAPORE_PAYNOW = encodeEmvRecord({
  "00": "01",
  "26": [
    ["00", "SG.PAYNOW"],
    ["01", "2"],
  ],
  "52": "0000",
  "53": "702",
  "58": "SG",
  "59": "SHOP",
  "60": "SINGAPORE",
});

const REFUSALS: ReadonlyArray<readonly [string, Record<string, unknown>, number, string, string]> = [
  ["a bad CRC", { qr_string: `${SANDBOX_QR_PAYLOADS.PIX.slice(0, -4)}0000` }, 400, "INVALID_QR", "qr_string"],
  [
    "a truncated payload",
    { qr_string: SANDBOX_QR_PAYLOADS.KE_QR.slice(0, 40) },
    400,
    "INVALID_QR",
    "qr_string",
  ],
  ["an unsupported scheme", { qr_string: SINGAPORE_PAYNOW }, 400, "INVALID_QR", "qr_string"],
  ["a typed destination", { qr_string: "52998224725" }, 400, "INVALID_QR", "qr_string"],
  ["no qr_string", { qr_string: undefined }, 400, "MISSING_REQUIRED_FIELD", "qr_string"],
  ["a qr_string that is not a string", { qr_string: 42 }, 400, "INVALID_FIELD", "qr_string"],
  ["no customer_id", { customer_id: undefined }, 400, "MISSING_REQUIRED_FIELD", "customer_id"],
  ["an unknown customer", { customer_id: "cus_nobody" }, 400, "CUSTOMER_NOT_FOUND", "customer_id"],
  ["a sender", { sender: { name_first: "Eve" } }, 400, "SENDER_NOT_ACCEPTED", "sender"],
  [
    "an amount other than the QR's",
    { qr_string: SANDBOX_QR_PAYLOADS.PIX, amount: 99.99 },
    400,
    "INVALID_AMOUNT",
    "amount",
  ],
  ["a negative amount", { amount: -5 }, 400, "INVALID_AMOUNT", "amount"],
  ["an amount out of the corridor's range", { amount: 1 }, 400, "AMOUNT_OUT_OF_RANGE", "amount"],
  ["a bad partner_app_id", { partner_app_id: "a/b" }, 400, "INVALID_FIELD", "partner_app_id"],
];

describe("refused requests", () => {
  it.each(REFUSALS)("%s", async (_name, body, status, code, field) => {
    const res = await decodeQr(platform, refusedOnly, { qr_string: SANDBOX_QR_PAYLOADS.KE_QR, ...body });
    expect(errorOf(res), res.text).toEqual({ status, code, field });
  });

  it("leave no transaction behind", async () => {
    expect(await transactionCount(platform, refusedOnly)).toBe(0);
  });
});
