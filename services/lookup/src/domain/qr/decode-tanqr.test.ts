import { describe, expect, it } from "vitest";
import { SANDBOX_QR_FIELDS } from "../../../testdata/sandbox-qr-samples.js";
import { decodeQr } from "./decode-qr.js";
import { type EmvRecord, encodeEmvRecord } from "./encode-emv.js";

const invalid = (message: string) => ({
  ok: false,
  error: { code: "INVALID_QR", message, field: "qr_string" },
});
const tanQr = (overrides: EmvRecord) => encodeEmvRecord({ ...SANDBOX_QR_FIELDS.TANQR, ...overrides });

describe("decodeQr — TANQR", () => {
  // Published static merchant sample (third-party TANQR builder; CRC 7D47 re-verified here).
  it("decodes the published static merchant sample completely", () => {
    const payload =
      "00020101021126390014tz.go.bot.tips0105010010208123456785204581453038345802TZ5914YN RESTAURANTS6006DODOMA610541000622103080011234907051100263047D47";
    expect(decodeQr(payload)).toEqual({
      ok: true,
      value: {
        scheme: "TANQR",
        destination: {
          country_code: "TZ",
          currency: "TZS",
          amount: "",
          is_dynamic: false,
          merchant: "YN RESTAURANTS",
          merchant_id: "12345678",
          merchant_name: "YN RESTAURANTS",
          institution_name: "",
          recipient: { name: "YN RESTAURANTS" },
          payment_method: "payment_key",
          destination_type: "TILL",
          payment_destination: "12345678",
          payment_destination_code: "TILL",
          is_business: true,
          payment_type: "till",
          merchant_info: {
            merchant_id: "12345678",
            display_name: "YN RESTAURANTS",
            country_code: "TZ",
            payment_type: "till",
            lipa_number: "12345678",
          },
        },
        details: {
          payload,
          point_of_initiation: "static",
          merchant_category_code: "5814",
          merchant_city: "DODOMA",
          postal_code: "41000",
          gui: "tz.go.bot.tips",
          bill_number: "",
          reference_label: "",
          purpose: "",
          store_label: "00112349",
          terminal_label: "11002",
          scheme_data: { account_tag: "26", acquirer_id: "01001" },
        },
      },
    });
  });

  it("round-trips a dynamic sandbox code with an amount", () => {
    const result = decodeQr(tanQr({ "01": "12", "54": "2000.00" }));
    expect(result.ok && result.value.destination).toMatchObject({
      merchant_id: "12345678",
      amount: "2000.00",
      is_dynamic: true,
      payment_type: "till",
    });
  });

  it.each<[string, EmvRecord, string]>([
    [
      "no TIPS template",
      {
        "26": [
          ["00", "tz.example"],
          ["02", "12345678"],
        ],
      },
      "TANQR merchant account template (GUI tz.go.bot.tips) is missing",
    ],
    [
      "missing merchant id",
      {
        "26": [
          ["00", "tz.go.bot.tips"],
          ["01", "01001"],
        ],
      },
      "TANQR merchant id (tag 26.02) is missing",
    ],
    [
      "merchant id with letters",
      {
        "26": [
          ["00", "tz.go.bot.tips"],
          ["02", "1234ABCD"],
        ],
      },
      'TANQR merchant id "1234ABCD" in tag 26.02 must be 5–15 digits',
    ],
    [
      "3-digit acquirer id",
      {
        "26": [
          ["00", "tz.go.bot.tips"],
          ["01", "010"],
          ["02", "12345678"],
        ],
      },
      'TANQR acquirer id "010" in tag 26.01 must be 5 digits',
    ],
    ["missing city", { "60": undefined }, "TANQR: required tag 60 (merchant city) is missing"],
  ])("rejects %s", (_name, overrides, message) => {
    expect(decodeQr(tanQr(overrides))).toEqual(invalid(message));
  });
});
