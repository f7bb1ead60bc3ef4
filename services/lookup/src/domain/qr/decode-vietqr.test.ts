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

const vietQr = (overrides: EmvRecord) => encodeEmvRecord({ ...SANDBOX_QR_FIELDS.VIETQR, ...overrides });
const napas = (beneficiary: string | EmvNode[], serviceCode?: string): EmvNode[] => [
  ["00", "A000000727"],
  ["01", beneficiary],
  ...(serviceCode === undefined ? [] : [["02", serviceCode] as const]),
];

describe("decodeQr — VietQR verified vectors", () => {
  it("decodes the subiz/vietqr example completely", () => {
    const payload =
      "00020101021238570010A00000072701270006970415011300110019324180208QRIBFTTA530370454061200005802VN62170813ung ho lu lut6304C15C";
    expect(decodeQr(payload)).toEqual({
      ok: true,
      value: {
        scheme: "VIETQR",
        destination: {
          country_code: "VN",
          currency: "VND",
          amount: "120000",
          is_dynamic: true,
          merchant: "",
          merchant_id: "0011001932418",
          merchant_name: "",
          institution_name: "",
          recipient: { account_no: "0011001932418", bank_no: "970415" },
          payment_method: "bank_transfer",
          destination_type: "VN_ACCOUNT",
          payment_destination: "0011001932418",
          payment_destination_code: "970415",
          is_business: false,
          account_reference: "970415",
        },
        details: {
          payload,
          point_of_initiation: "dynamic",
          merchant_category_code: "",
          merchant_city: "",
          postal_code: "",
          gui: "A000000727",
          bill_number: "",
          reference_label: "",
          purpose: "ung ho lu lut",
          store_label: "",
          terminal_label: "",
          scheme_data: { service_code: "QRIBFTTA", bin: "970415" },
        },
      },
    });
  });

  it("decodes the generated to-account vector with amount and purpose", () => {
    const qr = decoded(
      "00020101021238570010A00000072701270006970436011300110012345670208QRIBFTTA530370454061500005802VN62220818THANH TOAN DON 12363044C8E",
    );
    expect(qr.destination).toMatchObject({
      destination_type: "VN_ACCOUNT",
      payment_destination: "0011001234567",
      payment_destination_code: "970436",
      amount: "150000",
    });
    expect(qr.details.purpose).toBe("THANH TOAN DON 123");
  });

  it("decodes the generated static to-card vector", () => {
    const qr = decoded(
      "00020101021138600010A00000072701300006970418011697041800123456780208QRIBFTTC53037045802VN6304616F",
    );
    expect(qr.destination).toMatchObject({
      destination_type: "VN_CARD",
      payment_destination: "9704180012345678",
      payment_destination_code: "970418",
      recipient: { account_no: "9704180012345678", bank_no: "970418" },
      is_dynamic: false,
      amount: "",
    });
    expect(qr.details.scheme_data.service_code).toBe("QRIBFTTC");
  });

  it.each([
    [
      "00 = 00 (vietqr-parser README example)",
      "00020001021238570010A00000072701270006970436011308810004580860208QRIBFTTA53037045802VN6304CD60",
      'tag 00 (payload format indicator) must be "01", found "00"',
    ],
    [
      "missing service code 38-02",
      "00020101021138450010A000000727012700069704360113001100123456753037045802VN630432FB",
      "VietQR service code (tag 38.02) is missing; expected QRIBFTTA, QRIBFTTC or QRPUSH",
    ],
    [
      "5-digit BIN",
      "00020101021138560010A0000007270126000597043011300110012345670208QRIBFTTA53037045802VN6304A72F",
      'VietQR bank BIN "97043" in tag 38.01.00 must be 6 digits',
    ],
  ])("rejects the %s vector", (_name, payload, message) => {
    expect(decodeQr(payload)).toEqual(invalid(message));
  });
});

describe("decodeQr — VietQR payloads built with the encoder", () => {
  it("round-trips the sandbox sample", () => {
    const qr = decoded(vietQr({}));
    expect(qr.destination).toMatchObject({
      payment_destination: "0011001234567",
      amount: "150000",
      currency: "VND",
    });
  });

  it("decodes a QRPUSH merchant code as a business EMV QR without an account number", () => {
    const qr = decoded(
      vietQr({
        "38": napas(
          [
            ["00", "970422"],
            ["01", "MB12345"],
          ],
          "QRPUSH",
        ),
        "59": "CUA HANG MAU",
      }),
    );
    expect(qr.destination).toMatchObject({
      destination_type: "EMV_QR",
      payment_destination: "MB12345",
      payment_destination_code: "970422",
      is_business: true,
      merchant: "CUA HANG MAU",
      recipient: { name: "CUA HANG MAU", bank_no: "970422" },
    });
  });

  it("accepts zero decimals on a VND amount and drops them", () => {
    expect(decoded(vietQr({ "54": "150000.00" })).destination.amount).toBe("150000");
  });

  it("accepts a lower-case NAPAS AID", () => {
    const nodes = napas(
      [
        ["00", "970436"],
        ["01", "0011001234567"],
      ],
      "QRIBFTTA",
    );
    expect(decoded(vietQr({ "38": [["00", "a000000727"], ...nodes.slice(1)] })).details.gui).toBe(
      "a000000727",
    );
  });

  const beneficiary = (id: string): EmvNode[] => [
    ["00", "970436"],
    ["01", id],
  ];

  it.each<[string, EmvRecord, string]>([
    [
      "missing template 38",
      { "38": undefined },
      "VietQR merchant account template (tag 38, GUID A000000727) is missing",
    ],
    [
      "wrong AID",
      { "38": [["00", "A000000728"], ...napas(beneficiary("0011001234567"), "QRIBFTTA").slice(1)] },
      'wrong GUI in tag 38.00: "A000000728" is not A000000727',
    ],
    [
      "missing beneficiary",
      {
        "38": [
          ["00", "A000000727"],
          ["02", "QRIBFTTA"],
        ],
      },
      "VietQR beneficiary template (tag 38.01) is missing",
    ],
    [
      "broken beneficiary sub-template",
      { "38": napas("000697043601X3abc", "QRIBFTTA") },
      'tag 38.01.01 at offset 44 has an invalid length "X3" (01–99)',
    ],
    [
      "missing account",
      { "38": napas([["00", "970436"]], "QRIBFTTA") },
      "VietQR account or card number (tag 38.01.01) is missing",
    ],
    [
      "unknown service code",
      { "38": napas(beneficiary("0011001234567"), "QRIBFTTX") },
      'unknown VietQR service code "QRIBFTTX" in tag 38.02; expected QRIBFTTA, QRIBFTTC or QRPUSH',
    ],
    [
      "account with letters",
      { "38": napas(beneficiary("00110A1234567"), "QRIBFTTA") },
      'VietQR QRIBFTTA needs an account number of 6–19 digits in tag 38.01.01, found "00110A1234567"',
    ],
    [
      "account of 20 digits",
      { "38": napas(beneficiary("00110012345678901234"), "QRIBFTTA") },
      'VietQR QRIBFTTA needs an account number of 6–19 digits in tag 38.01.01, found "00110012345678901234"',
    ],
    [
      "account number under the to-card service",
      { "38": napas(beneficiary("0011001234567"), "QRIBFTTC") },
      'VietQR QRIBFTTC needs a 16–19 digit card number starting 9704 in tag 38.01.01, found "0011001234567"',
    ],
    [
      "dong amount with decimals",
      { "54": "150000.50" },
      'amount "150000.50" in tag 54 has more decimals than VND allows (0)',
    ],
    ["Brazilian currency", { "53": "986" }, "VietQR: currency must be VND (704), found BRL (986) in tag 53"],
    ["missing currency", { "53": undefined }, "VietQR: required tag 53 (transaction currency) is missing"],
  ])("rejects %s", (_name, overrides, message) => {
    expect(decodeQr(vietQr(overrides))).toEqual(invalid(message));
  });
});
