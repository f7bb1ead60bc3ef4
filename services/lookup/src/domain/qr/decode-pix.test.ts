import { describe, expect, it } from "vitest";
import { SANDBOX_QR_FIELDS } from "../../../testdata/sandbox-qr-samples.js";
import { decodeQr } from "./decode-qr.js";
import type { DecodedQr } from "./decoded-qr.js";
import { type EmvNode, type EmvRecord, encodeEmvRecord } from "./encode-emv.js";

const invalid = (message: string) => ({
  ok: false,
  error: { code: "INVALID_QR", message, field: "qr_string" },
});

function decoded(payload: string): DecodedQr {
  const result = decodeQr(payload);
  if (!result.ok) throw new Error(`expected ${payload} to decode: ${result.error.message}`);
  return result.value;
}

const pix = (overrides: EmvRecord) => encodeEmvRecord({ ...SANDBOX_QR_FIELDS.PIX, ...overrides });
const account = (...nodes: EmvNode[]): EmvNode[] => [["00", "br.gov.bcb.pix"], ...nodes];

describe("decodeQr — BR Code (Pix) verified vectors", () => {
  it("decodes the BCB manual static example completely", () => {
    const payload =
      "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
    expect(decodeQr(payload)).toEqual({
      ok: true,
      value: {
        scheme: "PIX",
        destination: {
          country_code: "BR",
          currency: "BRL",
          amount: "",
          is_dynamic: false,
          merchant: "Fulano de Tal",
          merchant_id: "",
          merchant_name: "",
          institution_name: "",
          recipient: { name: "Fulano de Tal" },
          payment_method: "payment_key",
          destination_type: "PIX_EVP",
          payment_destination: "123e4567-e12b-12d1-a456-426655440000",
          payment_destination_code: "PIX",
          is_business: false,
        },
        details: {
          payload,
          point_of_initiation: "static",
          merchant_category_code: "0000",
          merchant_city: "BRASILIA",
          postal_code: "",
          gui: "br.gov.bcb.pix",
          bill_number: "",
          reference_label: "***",
          purpose: "",
          store_label: "",
          terminal_label: "",
          scheme_data: { key_type: "EVP", txid: "***", description: "", url: "" },
        },
      },
    });
  });

  it("decodes the published dynamic example (upper-case GUI, URL in 26-25)", () => {
    const qr = decoded(
      "00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB",
    );
    expect(qr.destination).toMatchObject({
      destination_type: "EMV_QR",
      payment_destination: "pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99",
      payment_destination_code: "PIX",
      is_dynamic: true,
      merchant: "EMPRESA",
      amount: "",
    });
    expect(qr.details).toMatchObject({
      gui: "BR.GOV.BCB.PIX",
      point_of_initiation: "dynamic",
      merchant_city: "SAO PAULO",
    });
    expect(qr.details.scheme_data).toEqual({
      key_type: "",
      txid: "***",
      description: "",
      url: "pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99",
    });
  });

  it("decodes the static EVP vector with description, amount and txid", () => {
    const qr = decoded(
      "00020126720014br.gov.bcb.pix0136123e4567-e89b-12d3-a456-4266554400000210Pedido 1235204000053039865406150.005802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62130509PEDIDO12363044D4D",
    );
    expect(qr.destination).toMatchObject({
      destination_type: "PIX_EVP",
      payment_destination: "123e4567-e89b-12d3-a456-426655440000",
      amount: "150.00",
      merchant: "LOJA EXEMPLO LTDA",
      is_dynamic: false,
    });
    expect(qr.details.reference_label).toBe("PEDIDO123");
    expect(qr.details.scheme_data).toEqual({
      key_type: "EVP",
      txid: "PEDIDO123",
      description: "Pedido 123",
      url: "",
    });
  });

  it.each([
    ["upper-case CRC", "2FD8"],
    ["lower-case CRC is accepted on read", "2fd8"],
  ])("decodes the static phone-key vector (%s)", (_name, crc) => {
    const qr = decoded(
      `00020126360014br.gov.bcb.pix0114+55119876543215204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***6304${crc}`,
    );
    expect(qr.destination).toMatchObject({
      destination_type: "PIX_PHONE",
      payment_destination: "+5511987654321",
      amount: "",
      merchant: "FULANO DE TAL",
    });
  });

  it("decodes the generated dynamic vector", () => {
    const qr = decoded(
      "00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca255204000053039865802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63044846",
    );
    expect(qr.destination.payment_destination).toBe("pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25");
    expect(qr.destination.is_dynamic).toBe(true);
  });

  it.each([
    [
      "BCB example with 54 inserted and the old CRC kept",
      "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540510.005802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
      "CRC mismatch: payload says 1D3D, expected 288F",
    ],
    [
      "correct CRC, 59 declares 13 but has 14",
      "00020126360014br.gov.bcb.pix0114+55119876543215204000053039865802BR5913FULANO DE TA L6008BRASILIA62070503***6304616E",
      'TLV broken at offset 84 (after tag 59): expected a 2-digit tag ID, found "L6"',
    ],
    [
      "correct CRC, GUI br.gov.bcb.pux",
      "00020126360014br.gov.bcb.pux0114+55119876543215204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***6304A36C",
      'wrong GUI in tag 26.00: "br.gov.bcb.pux" is not br.gov.bcb.pix',
    ],
  ])("rejects the %s", (_name, payload, message) => {
    expect(decodeQr(payload)).toEqual(invalid(message));
  });
});

describe("decodeQr — Pix payloads built with the encoder", () => {
  it("round-trips the sandbox sample", () => {
    const qr = decoded(pix({}));
    expect(qr.scheme).toBe("PIX");
    expect(qr.destination).toMatchObject({
      destination_type: "PIX_EVP",
      payment_destination: "123e4567-e89b-12d3-a456-426655440000",
      amount: "150.00",
      currency: "BRL",
      country_code: "BR",
    });
  });

  it.each([
    ["52998224725", "PIX_CPF", "52998224725", false],
    ["11222333000181", "PIX_CNPJ", "11222333000181", true],
    ["12ABC34501DE35", "PIX_CNPJ", "12ABC34501DE35", true],
    ["Pagamentos@Example.com", "PIX_EMAIL", "pagamentos@example.com", false],
    ["+5521998765432", "PIX_PHONE", "+5521998765432", false],
  ])("key %s → %s %s (business: %s)", (key, type, canonical, isBusiness) => {
    const qr = decoded(pix({ "26": account(["01", key]) }));
    expect(qr.destination).toMatchObject({
      destination_type: type,
      payment_destination: canonical,
      is_business: isBusiness,
    });
    expect(qr.details.scheme_data.key_type).toBe(type.slice(4));
  });

  it("treats 01 = 12 with a key as dynamic (single use)", () => {
    expect(decoded(pix({ "01": "12" })).destination.is_dynamic).toBe(true);
  });

  it("tolerates an https:// prefix on the payload location and drops it", () => {
    const qr = decoded(pix({ "26": account(["25", "https://pix.example.com/qr/v2/abc"]) }));
    expect(qr.destination.payment_destination).toBe("pix.example.com/qr/v2/abc");
  });

  it("reads a missing 62-05 as txid ***", () => {
    expect(decoded(pix({ "62": undefined })).details.scheme_data.txid).toBe("***");
  });

  it("ignores surrounding whitespace from the scanner and keeps the trimmed payload", () => {
    const payload = pix({});
    expect(decoded(`  ${payload}\r\n`).details.payload).toBe(payload);
  });

  it.each<[string, EmvRecord, string]>([
    [
      "key and URL together",
      { "26": account(["01", "52998224725"], ["25", "pix.example.com/qr/1"]) },
      "Pix template 26 has both a key (26.01) and a URL (26.25); a BR Code carries one of them",
    ],
    [
      "neither key nor URL",
      { "26": account(["02", "Pedido 1"]) },
      "Pix template 26 has neither a key (26.01) nor a URL (26.25)",
    ],
    [
      "key of no known type",
      { "26": account(["01", "12345"]) },
      'Pix key "12345" in tag 26.01 is not a CPF, CNPJ, +55 mobile number, e-mail or EVP key',
    ],
    [
      "plain http location",
      { "26": account(["25", "http://pix.example.com/qr/1"]) },
      'Pix URL "http://pix.example.com/qr/1" in tag 26.25 is not a payload location (host/path, https only)',
    ],
    [
      "missing template 26",
      { "26": undefined },
      "Pix merchant account template (tag 26, GUI br.gov.bcb.pix) is missing",
    ],
    [
      "txid with a hyphen",
      { "62": [["05", "PEDIDO-1"]] },
      'Pix txid in tag 62.05 must be 1–25 letters or digits, or ***; found "PEDIDO-1"',
    ],
    [
      "amount with 3 decimals",
      { "54": "10.005" },
      'amount "10.005" in tag 54 has 3 decimals; EMV allows at most 2',
    ],
    [
      "amount with a comma",
      { "54": "10,50" },
      'amount "10,50" in tag 54 must be digits with an optional "." and at most 13 characters',
    ],
    ["unknown currency", { "53": "840" }, "unknown or unsupported currency 840 in tag 53"],
    [
      "another corridor's currency",
      { "53": "704" },
      "Pix: currency must be BRL (986), found VND (704) in tag 53",
    ],
    [
      "non-numeric currency",
      { "53": "BRL" },
      'transaction currency (tag 53) must be a 3-digit ISO 4217 code, found "BRL"',
    ],
    ["missing merchant name", { "59": undefined }, "Pix: required tag 59 (merchant name) is missing"],
    ["missing city", { "60": undefined }, "Pix: required tag 60 (merchant city) is missing"],
    ["missing MCC", { "52": undefined }, "Pix: required tag 52 (merchant category code) is missing"],
    ["missing currency", { "53": undefined }, "Pix: required tag 53 (transaction currency) is missing"],
    [
      "name over 25",
      { "59": "LOJA EXEMPLO COMERCIO LTDA" },
      "merchant name (tag 59) has 26 characters; at most 25 are allowed",
    ],
    [
      "city over 15",
      { "60": "SAO JOSE DOS CAMPOS" },
      "merchant city (tag 60) has 19 characters; at most 15 are allowed",
    ],
    ["MCC not 4 digits", { "52": "000" }, 'merchant category code (tag 52) must be 4 digits, found "000"'],
    [
      "point of initiation 13",
      { "01": "13" },
      'point of initiation (tag 01) must be 11 (static) or 12 (dynamic), found "13"',
    ],
    [
      "wrong payload format indicator",
      { "00": "02" },
      'tag 00 (payload format indicator) must be "01", found "02"',
    ],
  ])("rejects %s", (_name, overrides, message) => {
    expect(decodeQr(pix(overrides))).toEqual(invalid(message));
  });
});
