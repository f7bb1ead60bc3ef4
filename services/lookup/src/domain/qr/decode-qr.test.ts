import { describe, expect, it } from "vitest";
import { SANDBOX_QR_PAYLOADS } from "../../../testdata/sandbox-qr-samples.js";
import { decodeQr } from "./decode-qr.js";
import type { QrScheme } from "./decoded-qr.js";
import { appendEmvCrc, encodeEmvRecord } from "./encode-emv.js";

const invalid = (message: string) => ({
  ok: false,
  error: { code: "INVALID_QR", message, field: "qr_string" },
});

const SUPPORTED = "Pix (BR), VietQR (VN), Argentina interoperable QR (AR), KE-QR (KE), TANQR (TZ)";

describe("decodeQr — scheme selection", () => {
  it.each<[QrScheme, string, string]>([
    ["PIX", "BR", "BRL"],
    ["VIETQR", "VN", "VND"],
    ["AR_INTEROPERABLE", "AR", "ARS"],
    ["KE_QR", "KE", "KES"],
    ["TANQR", "TZ", "TZS"],
  ])("decodes the %s sandbox sample as %s in %s", (scheme, country, currency) => {
    const result = decodeQr(SANDBOX_QR_PAYLOADS[scheme]);
    expect(result.ok && result.value.scheme).toBe(scheme);
    expect(result.ok && result.value.destination.country_code).toBe(country);
    expect(result.ok && result.value.destination.currency).toBe(currency);
  });

  it("refuses another country's EMV QR and names the scheme it found", () => {
    const payNow = encodeEmvRecord({
      "00": "01",
      "26": [
        ["00", "SG.PAYNOW"],
        ["01", "2"],
        ["02", "+6591234567"],
      ],
      "52": "0000",
      "53": "702",
      "58": "SG",
      "59": "NA",
      "60": "Singapore",
    });
    expect(decodeQr(payNow)).toEqual(
      invalid(`unsupported QR scheme: country SG, merchant accounts 26 SG.PAYNOW; supported: ${SUPPORTED}`),
    );
  });

  it("refuses a corridor country that has no supported QR scheme", () => {
    const peru = encodeEmvRecord({
      "00": "01",
      "04": "5254542999000202",
      "53": "604",
      "58": "PE",
      "59": "BODEGA",
    });
    expect(decodeQr(peru)).toEqual(
      invalid(`unsupported QR scheme: country PE, no merchant account template; supported: ${SUPPORTED}`),
    );
  });

  it("requires a country code", () => {
    expect(decodeQr(encodeEmvRecord({ "00": "01", "53": "986" }))).toEqual(
      invalid("required tag 58 (country code) is missing"),
    );
  });

  it("requires the country code in upper case", () => {
    expect(decodeQr(encodeEmvRecord({ "00": "01", "53": "986", "58": "br" }))).toEqual(
      invalid('country code (tag 58) must be 2 upper-case letters, found "br"'),
    );
  });
});

describe("decodeQr — malformed input", () => {
  const pix = SANDBOX_QR_PAYLOADS.PIX;

  it.each([
    ["empty", "", "QR payload is empty"],
    ["only whitespace", " \n", "QR payload is empty"],
    [
      "not EMV at all",
      "https://example.com/pay",
      'TLV broken at offset 0: expected a 2-digit tag ID, found "ht"',
    ],
    [
      "CRC value cut off",
      pix.slice(0, -4),
      `tag 63 at offset ${pix.length - 8} declares length 4 but only 0 character(s) remain in the payload`,
    ],
    ["missing 63", pix.slice(0, -8), "CRC field (tag 63) is missing"],
  ])("%s", (_name, payload, message) => {
    expect(decodeQr(payload)).toEqual(invalid(message));
  });

  it("reports a truncated payload with its offset", () => {
    // Cut inside the merchant name: 59 declares 17 characters that are no longer there.
    const cut = pix.slice(0, pix.indexOf("LOJA EXEMPLO") + 4);
    const offset = pix.indexOf("5917LOJA");
    expect(decodeQr(cut)).toEqual(
      invalid(`tag 59 at offset ${offset} declares length 17 but only 4 character(s) remain in the payload`),
    );
  });

  it("reports a changed character as a CRC mismatch with the expected value", () => {
    const tampered = pix.replace("150.00", "950.00");
    const expected = appendEmvCrc(tampered.slice(0, -8)).slice(-4);
    expect(decodeQr(tampered)).toEqual(
      invalid(`CRC mismatch: payload says ${pix.slice(-4)}, expected ${expected}`),
    );
  });
});
