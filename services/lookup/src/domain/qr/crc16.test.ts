import { describe, expect, it } from "vitest";
import { crc16CcittFalse, crc16Hex } from "./crc16.js";

describe("crc16CcittFalse", () => {
  it("reproduces the standard check value CRC('123456789') = 29B1", () => {
    expect(crc16CcittFalse("123456789")).toBe(0x29b1);
  });

  it("returns the initial value for empty input", () => {
    expect(crc16Hex("")).toBe("FFFF");
  });

  // Published payloads (the BCB BR Code example, a real VietQR transfer, a real Argentine code): the CRC
  // covers everything up to and including "6304".
  it.each([
    [
      "BCB manual static example",
      "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304",
      "1D3D",
    ],
    [
      "Pix dynamic example",
      "00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304",
      "EEAB",
    ],
    [
      "BCB example with an amount inserted",
      "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540510.005802BR5913Fulano de Tal6008BRASILIA62070503***6304",
      "288F",
    ],
    [
      "VietQR subiz example",
      "00020101021238570010A00000072701270006970415011300110019324180208QRIBFTTA530370454061200005802VN62170813ung ho lu lut6304",
      "C15C",
    ],
    [
      "Argentina interoperable sample",
      "00020101021140200010com.yacare02022350150011336972350495204739953030325802AR5910HAVANNA SA6012BUENOS AIRES81220010com.yacare0204Y2156304",
      "E401",
    ],
  ])("%s → %s", (_name, body, expected) => {
    expect(crc16Hex(body)).toBe(expected);
  });

  it("pads to four digits", () => {
    expect(crc16Hex("02")).toBe("0E8B");
  });

  it("hashes non-ASCII characters as UTF-8 bytes, not Latin-1", () => {
    expect(crc16Hex("é")).toBe("7ACB"); // C3 A9; the Latin-1 byte E9 would give 8DF7
  });
});
