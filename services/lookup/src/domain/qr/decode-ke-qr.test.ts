import { describe, expect, it } from "vitest";
import { SANDBOX_QR_FIELDS } from "../../../testdata/sandbox-qr-samples.js";
import { decodeQr } from "./decode-qr.js";
import type { DecodedQr } from "./decoded-qr.js";
import { type EmvRecord, encodeEmvRecord } from "./encode-emv.js";

const invalid = (message: string) => ({
  ok: false,
  error: { code: "INVALID_QR", message, field: "qr_string" },
});
const keQr = (overrides: EmvRecord) => encodeEmvRecord({ ...SANDBOX_QR_FIELDS.KE_QR, ...overrides });

function decoded(payload: string): DecodedQr {
  const result = decodeQr(payload);
  if (!result.ok) throw new Error(`expected ${payload} to decode: ${result.error.message}`);
  return result.value;
}

describe("decodeQr — KE-QR", () => {
  it("decodes a static till code into the partner API's merchant fields", () => {
    const payload = keQr({});
    expect(decodeQr(payload)).toEqual({
      ok: true,
      value: {
        scheme: "KE_QR",
        destination: {
          country_code: "KE",
          currency: "KES",
          amount: "",
          is_dynamic: false,
          merchant: "EXAMPLE SUPERMARKET",
          merchant_id: "174379",
          merchant_name: "EXAMPLE SUPERMARKET",
          institution_name: "",
          recipient: { name: "EXAMPLE SUPERMARKET" },
          payment_method: "payment_key",
          destination_type: "TILL",
          payment_destination: "174379",
          payment_destination_code: "TILL",
          is_business: true,
          payment_type: "till",
          merchant_info: {
            merchant_id: "174379",
            display_name: "EXAMPLE SUPERMARKET",
            country_code: "KE",
            payment_type: "till",
            lipa_number: "174379",
          },
        },
        details: {
          payload,
          point_of_initiation: "static",
          merchant_category_code: "5411",
          merchant_city: "NAIROBI",
          postal_code: "",
          gui: "ke.go.qr",
          bill_number: "",
          reference_label: "",
          purpose: "",
          store_label: "",
          terminal_label: "",
          scheme_data: { account_tag: "28" },
        },
      },
    });
  });

  it("reads 62-01 as the paybill account reference", () => {
    const qr = decoded(
      keQr({
        "28": [
          ["00", "ke.go.qr"],
          ["01", "444174"],
        ],
        "62": [["01", "INV12345"]],
        "01": "12",
        "54": "1500",
      }),
    );
    expect(qr.destination).toMatchObject({
      destination_type: "PAYBILL",
      payment_destination_code: "PAYBILL",
      payment_type: "paybill",
      merchant_id: "444174",
      account_reference: "INV12345",
      amount: "1500.00",
      is_dynamic: true,
    });
    expect(qr.destination.merchant_info).toEqual({
      merchant_id: "444174",
      display_name: "EXAMPLE SUPERMARKET",
      country_code: "KE",
      payment_type: "paybill",
      lipa_number: "444174",
      account_reference: "INV12345",
    });
  });

  it("reads 62-01 = *** as a paybill whose account reference the payer still has to give", () => {
    const qr = decoded(keQr({ "62": [["01", "***"]] }));
    expect(qr.destination.payment_type).toBe("paybill");
    expect(qr.destination.account_reference).toBeUndefined();
    expect(qr.destination.merchant_info?.account_reference).toBeUndefined();
  });

  it.each([
    ["04", "paybill"],
    ["02", "till"],
  ])("reads M-PESA routing type %s (tag 83) as %s", (type, paymentType) => {
    const routing = keQr({
      "83": [
        ["00", "m-pesa.com"],
        ["01", type],
      ],
    });
    expect(decoded(routing).destination.payment_type).toBe(paymentType);
  });

  it("skips a GUI-only ke.go.qr template (the interop flag) that comes before the one with the number", () => {
    const qr = decoded(keQr({ "27": [["00", "ke.go.qr"]], "60": undefined }));
    expect(qr.destination.merchant_id).toBe("174379");
    expect(qr.details.scheme_data.account_tag).toBe("28");
    expect(qr.details.merchant_city).toBe("");
  });

  it.each<[string, EmvRecord, string]>([
    [
      "no ke.go.qr template",
      {
        "28": [
          ["00", "ke.co.example"],
          ["01", "174379"],
        ],
      },
      "KE-QR merchant account template (GUI ke.go.qr) is missing",
    ],
    [
      "template without a number",
      { "28": [["00", "ke.go.qr"]] },
      "KE-QR template 28 has no till or paybill number (sub-tag 01)",
    ],
    [
      "4-digit till",
      {
        "28": [
          ["00", "ke.go.qr"],
          ["01", "1234"],
        ],
      },
      'KE-QR till or paybill number "1234" in tag 28.01 must be 5–7 digits',
    ],
    [
      "account reference over 12 characters",
      { "62": [["01", "ABCDEFGHIJKLMNO"]] },
      'paybill account reference "ABCDEFGHIJKLMNO" in tag 62.01 must be 1–12 letters or digits',
    ],
    ["missing merchant name", { "59": undefined }, "KE-QR: required tag 59 (merchant name) is missing"],
    ["Tanzanian currency", { "53": "834" }, "KE-QR: currency must be KES (404), found TZS (834) in tag 53"],
  ])("rejects %s", (_name, overrides, message) => {
    expect(decodeQr(keQr(overrides))).toEqual(invalid(message));
  });
});
