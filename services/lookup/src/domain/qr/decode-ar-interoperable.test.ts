import { describe, expect, it } from "vitest";
import { SANDBOX_QR_FIELDS } from "../../../testdata/sandbox-qr-samples.js";
import { decodeQr } from "./decode-qr.js";
import { type EmvRecord, encodeEmvRecord } from "./encode-emv.js";

const invalid = (message: string) => ({
  ok: false,
  error: { code: "INVALID_QR", message, field: "qr_string" },
});
const argentina = (overrides: EmvRecord) =>
  encodeEmvRecord({ ...SANDBOX_QR_FIELDS.AR_INTEROPERABLE, ...overrides });

describe("decodeQr — Argentina interoperable QR", () => {
  it("decodes an observed real code completely", () => {
    const payload =
      "00020101021140200010com.yacare02022350150011336972350495204739953030325802AR5910HAVANNA SA6012BUENOS AIRES81220010com.yacare0204Y2156304E401";
    expect(decodeQr(payload)).toEqual({
      ok: true,
      value: {
        scheme: "AR_INTEROPERABLE",
        destination: {
          country_code: "AR",
          currency: "ARS",
          amount: "",
          is_dynamic: false,
          merchant: "HAVANNA SA",
          merchant_id: "33697235049",
          merchant_name: "",
          institution_name: "",
          recipient: { name: "HAVANNA SA" },
          payment_method: "payment_key",
          destination_type: "EMV_QR",
          payment_destination: "33697235049",
          payment_destination_code: "com.yacare",
          is_business: true,
        },
        details: {
          payload,
          point_of_initiation: "static",
          merchant_category_code: "7399",
          merchant_city: "BUENOS AIRES",
          postal_code: "",
          gui: "com.yacare",
          bill_number: "",
          reference_label: "",
          purpose: "",
          store_label: "",
          terminal_label: "",
          scheme_data: { cuit: "33697235049", acquirer_tag: "40" },
        },
      },
    });
  });

  it("round-trips the sandbox sample with an amount", () => {
    const result = decodeQr(argentina({ "01": "12", "54": "2500.5" }));
    expect(result.ok && result.value.destination).toMatchObject({
      payment_destination: "30712345671",
      payment_destination_code: "ar.com.example.acquirer",
      amount: "2500.50",
      is_dynamic: true,
    });
  });

  it.each<[string, EmvRecord, string]>([
    ["missing CUIT template 50", { "50": undefined }, "Argentina QR: merchant CUIT (tag 50.00) is missing"],
    [
      "CUIT of 10 digits",
      { "50": [["00", "3071234567"]] },
      'Argentina QR: CUIT "3071234567" in tag 50.00 must be 11 digits',
    ],
    [
      "no acquirer template",
      { "40": undefined },
      "Argentina QR: no acquirer template (tags 26–51 other than 50, with a GUI in sub-tag 00)",
    ],
    [
      "missing city",
      { "60": undefined },
      "Argentina interoperable QR: required tag 60 (merchant city) is missing",
    ],
    [
      "Brazilian currency",
      { "53": "986" },
      "Argentina interoperable QR: currency must be ARS (032), found BRL (986) in tag 53",
    ],
  ])("rejects %s", (_name, overrides, message) => {
    expect(decodeQr(argentina(overrides))).toEqual(invalid(message));
  });
});
