import { describe, expect, it } from "vitest";
import {
  type EmvField,
  findEmvField,
  isEmvTemplateId,
  parseEmvPayload,
  parseEmvTemplate,
} from "./emv-tlv.js";
import { appendEmvCrc, encodeEmvFields, encodeEmvPayload } from "./encode-emv.js";

const BCB_STATIC =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
const AR_SAMPLE =
  "00020101021140200010com.yacare02022350150011336972350495204739953030325802AR5910HAVANNA SA6012BUENOS AIRES81220010com.yacare0204Y2156304E401";
const VIETQR_SUBIZ =
  "00020101021238570010A00000072701270006970415011300110019324180208QRIBFTTA530370454061200005802VN62170813ung ho lu lut6304C15C";

const ids = (fields: readonly EmvField[] | undefined) => fields?.map((field) => field.id);

function parsed(payload: string) {
  const result = parseEmvPayload(payload);
  if (!result.ok) throw new Error(`expected ${payload} to parse: ${result.error.message}`);
  return result.value;
}

function syntaxErrorOf(payload: string) {
  const result = parseEmvPayload(payload);
  if (result.ok) throw new Error(`expected ${payload} to be rejected`);
  return result.error;
}

describe("parseEmvPayload — valid payloads", () => {
  it("reads the BCB manual static example with its nested merchant account template", () => {
    const payload = parsed(BCB_STATIC);
    expect(ids(payload.fields)).toEqual(["00", "26", "52", "53", "58", "59", "60", "62", "63"]);
    expect(payload.crc).toBe("1D3D");
    const account = findEmvField(payload.fields, "26");
    expect(account?.offset).toBe(6);
    expect(account?.children).toEqual([
      { id: "00", value: "br.gov.bcb.pix", offset: 10, path: "26.00" },
      { id: "01", value: "123e4567-e12b-12d1-a456-426655440000", offset: 28, path: "26.01" },
    ]);
    expect(findEmvField(payload.fields, "59")?.value).toBe("Fulano de Tal");
    expect(findEmvField(findEmvField(payload.fields, "62")?.children, "05")?.value).toBe("***");
  });

  it("reads templates 40, 50 and 81 of the Argentina sample", () => {
    const payload = parsed(AR_SAMPLE);
    expect(ids(findEmvField(payload.fields, "40")?.children)).toEqual(["00", "02"]);
    expect(findEmvField(findEmvField(payload.fields, "50")?.children, "00")?.value).toBe("33697235049");
    expect(findEmvField(findEmvField(payload.fields, "81")?.children, "02")?.value).toBe("Y215");
  });

  it("accepts a lower-case CRC and reports it as written", () => {
    const lower =
      "00020126360014br.gov.bcb.pix0114+55119876543215204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***63042fd8";
    expect(parsed(lower).crc).toBe("2fd8");
  });

  it("leaves primitive IDs 02–25 and 52–61 unparsed even when they look like TLV", () => {
    const payload = parsed(
      encodeEmvPayload([
        ["00", "01"],
        ["04", "5254542999000202"],
        ["59", "0102AB"],
      ]),
    );
    expect(findEmvField(payload.fields, "04")?.children).toBeUndefined();
    expect(findEmvField(payload.fields, "59")?.children).toBeUndefined();
  });

  it("counts characters, not bytes, for non-ASCII values", () => {
    const payload = parsed(
      encodeEmvPayload([
        ["00", "01"],
        ["60", "SÃO PAULO"],
        ["59", "JOSÉ"],
      ]),
    );
    expect(findEmvField(payload.fields, "60")?.value).toBe("SÃO PAULO");
    expect(findEmvField(payload.fields, "59")?.offset).toBe(19);
  });
});

describe("parseEmvTemplate", () => {
  it("reads VietQR 38-01 one level deeper with absolute offsets", () => {
    const beneficiary = findEmvField(findEmvField(parsed(VIETQR_SUBIZ).fields, "38")?.children, "01");
    expect(beneficiary?.offset).toBe(30);
    const inner = beneficiary ? parseEmvTemplate(beneficiary) : undefined;
    expect(inner).toEqual({
      ok: true,
      value: [
        { id: "00", value: "970415", offset: 34, path: "38.01.00" },
        { id: "01", value: "0011001932418", offset: 44, path: "38.01.01" },
      ],
    });
  });

  it("reports a broken sub-template with the full tag path", () => {
    const field: EmvField = { id: "01", value: "000697043601X3abc", offset: 30, path: "38.01" };
    expect(parseEmvTemplate(field)).toEqual({
      ok: false,
      error: {
        offset: 46,
        tag: "38.01.01",
        message: 'tag 38.01.01 at offset 44 has an invalid length "X3" (01–99)',
      },
    });
  });
});

describe("parseEmvPayload — rejected payloads", () => {
  it.each<[string, string, number, string, string]>([
    ["empty input", "", 0, "", "QR payload is empty"],
    [
      "CRC mismatch (BCB example with 54 inserted, old CRC kept)",
      "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540510.005802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
      138,
      "63",
      "CRC mismatch: payload says 1D3D, expected 288F",
    ],
    [
      "TLV broken with a correct CRC (59 declares 13, value has 14)",
      "00020126360014br.gov.bcb.pix0114+55119876543215204000053039865802BR5913FULANO DE TA L6008BRASILIA62070503***6304616E",
      84,
      "",
      'TLV broken at offset 84 (after tag 59): expected a 2-digit tag ID, found "L6"',
    ],
    [
      "00 ≠ 01 (vietqr-parser README example)",
      "00020001021238570010A00000072701270006970436011308810004580860208QRIBFTTA53037045802VN6304CD60",
      0,
      "00",
      'tag 00 (payload format indicator) must be "01", found "00"',
    ],
    [
      "00 not first",
      appendEmvCrc("0102110002015802BR"),
      0,
      "01",
      "tag 00 (payload format indicator) must come first, found 01",
    ],
    ["missing 63", "0002015802BR5903ABC", 19, "63", "CRC field (tag 63) is missing"],
    [
      "63 not last",
      `${appendEmvCrc("0002015802BR")}5903ABC`,
      12,
      "63",
      "CRC field (tag 63) at offset 12 is not the last field",
    ],
    [
      "63 with length 05",
      "0002015802BR6305ABCDE",
      12,
      "63",
      "CRC field (tag 63) must have length 04, found 5",
    ],
    ["63 not hex", "0002015802BR6304WXYZ", 12, "63", 'CRC field (tag 63) must be 4 hex digits, found "WXYZ"'],
    [
      "truncated in the middle of a value",
      "0002015303986540610",
      13,
      "54",
      "tag 54 at offset 13 declares length 6 but only 2 character(s) remain in the payload",
    ],
    [
      "truncated inside a header",
      "00020153",
      6,
      "",
      "TLV truncated at offset 6 (after tag 00): 2 character(s) left",
    ],
    ["non-digit length", "00020153A3986", 8, "53", 'tag 53 at offset 6 has an invalid length "A3" (01–99)'],
    ["length 00", "0002015300", 8, "53", 'tag 53 at offset 6 has an invalid length "00" (01–99)'],
    [
      "non-digit ID",
      appendEmvCrc("000201X303986"),
      6,
      "",
      'TLV broken at offset 6 (after tag 00): expected a 2-digit tag ID, found "X3"',
    ],
    [
      "duplicate top-level tag",
      appendEmvCrc("00020154031.0540299"),
      13,
      "54",
      "tag 54 appears twice (offsets 6 and 13)",
    ],
    [
      "nested template overflow",
      appendEmvCrc(
        encodeEmvFields([
          ["00", "01"],
          ["26", "0014br.gov.bcb.pix0150short"],
        ]),
      ),
      28,
      "26.01",
      "tag 26.01 at offset 28 declares length 50 but only 5 character(s) remain in template 26",
    ],
    [
      "broken ID inside a template",
      appendEmvCrc(
        encodeEmvFields([
          ["00", "01"],
          ["62", "0503***x"],
        ]),
      ),
      17,
      "62",
      "TLV truncated at offset 17 (after tag 62.05): 1 character(s) left",
    ],
    [
      "template too short for a header",
      appendEmvCrc(
        encodeEmvFields([
          ["00", "01"],
          ["62", "05"],
        ]),
      ),
      10,
      "62",
      "TLV truncated at offset 10 (start of template 62): 2 character(s) left",
    ],
    [
      "control character",
      `${BCB_STATIC.slice(0, 10)}\n${BCB_STATIC.slice(10)}`,
      10,
      "",
      "QR payload contains control character U+000A at offset 10",
    ],
  ])("%s", (_name, payload, offset, tag, message) => {
    expect(syntaxErrorOf(payload)).toEqual({ offset, tag, message });
  });

  it("refuses payloads longer than 512 characters before walking them", () => {
    const error = syntaxErrorOf(`000201${"5".repeat(600)}`);
    expect(error.message).toBe("QR payload has 606 characters; EMV allows at most 512");
  });
});

describe("isEmvTemplateId", () => {
  it.each([
    ["26", true],
    ["51", true],
    ["62", true],
    ["64", true],
    ["80", true],
    ["99", true],
    ["25", false],
    ["52", false],
    ["63", false],
    ["65", false],
    ["79", false],
  ])("%s → %s", (id, expected) => {
    expect(isEmvTemplateId(id)).toBe(expected);
  });
});
