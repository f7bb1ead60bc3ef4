import { describe, expect, it } from "vitest";
import { looksLikeEmvQr } from "./emv-detect.js";

describe("looksLikeEmvQr", () => {
  it.each([
    [
      "BR Code static (BCB manual)",
      "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
    ],
    [
      "VietQR",
      "00020101021238570010A00000072701270006970415011300110019324180208QRIBFTTA530370454061200005802VN62170813ung ho lu lut6304C15C",
    ],
    [
      "AR interoperable QR",
      "00020101021140200010com.yacare02022350150011336972350495204739953030325802AR5910HAVANNA SA6012BUENOS AIRES81220010com.yacare0204Y2156304E401",
    ],
    ["QR with a broken CRC", "000201010211520400005303986580" + "2BR5903ABC6003RIO6304ZZZZ"],
    ["QR with surrounding spaces", "  00020101021238570010A00000072701270006970415  "],
  ])("recognises %s", (_label, payload) => {
    expect(looksLikeEmvQr(payload)).toBe(true);
  });

  it.each([
    ["CVU starting with 000201", "0002010100000123456789"],
    ["CBU", "0110012920000091344977"],
    [
      "non-conforming payload (00 = 00)",
      "00020001021238570010A00000072701270006970436011308810004580860208QRIBFTTA53037045802VN6304CD60",
    ],
    ["alias", "casa.perro.sol"],
    ["short string with the prefix", "000201010211"],
    ["empty", ""],
  ])("does not flag %s", (_label, value) => {
    expect(looksLikeEmvQr(value)).toBe(false);
  });
});
