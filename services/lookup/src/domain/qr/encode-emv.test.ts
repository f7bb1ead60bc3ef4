import { describe, expect, it } from "vitest";
import { SANDBOX_QR_FIELDS, SANDBOX_QR_PAYLOADS } from "../../../testdata/sandbox-qr-samples.js";
import { findEmvField, parseEmvPayload } from "./emv-tlv.js";
import { appendEmvCrc, encodeEmvFields, encodeEmvPayload, encodeEmvRecord } from "./encode-emv.js";

describe("encodeEmvPayload", () => {
  it("rebuilds the BCB manual static example byte for byte", () => {
    const payload = encodeEmvPayload([
      ["00", "01"],
      [
        "26",
        [
          ["00", "br.gov.bcb.pix"],
          ["01", "123e4567-e12b-12d1-a456-426655440000"],
        ],
      ],
      ["52", "0000"],
      ["53", "986"],
      ["58", "BR"],
      ["59", "Fulano de Tal"],
      ["60", "BRASILIA"],
      ["62", [["05", "***"]]],
    ]);
    expect(payload).toBe(
      "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
    );
  });

  it("rebuilds the VietQR to-card vector with its nested beneficiary template", () => {
    const payload = encodeEmvRecord(
      Object.fromEntries([
        ["00", "01"],
        ["01", "11"],
        [
          "38",
          [
            ["00", "A000000727"],
            [
              "01",
              [
                ["00", "970418"],
                ["01", "9704180012345678"],
              ],
            ],
            ["02", "QRIBFTTC"],
          ],
        ],
        ["53", "704"],
        ["58", "VN"],
      ]),
    );
    expect(payload).toBe(
      "00020101021138600010A00000072701300006970418011697041800123456780208QRIBFTTC53037045802VN6304616F",
    );
  });

  it("writes record fields in ascending ID order, 00 first", () => {
    expect(encodeEmvFields([["58", "BR"]])).toBe("5802BR");
    expect(encodeEmvRecord({ "58": "BR", "00": "01", "53": undefined })).toBe(appendEmvCrc("0002015802BR"));
  });

  it.each(Object.entries(SANDBOX_QR_PAYLOADS))(
    "%s sample parses back to the fields it was built from",
    (scheme, payload) => {
      const result = parseEmvPayload(payload);
      expect(result.ok).toBe(true);
      const fields = SANDBOX_QR_FIELDS[scheme as keyof typeof SANDBOX_QR_FIELDS];
      for (const [id, value] of Object.entries(fields)) {
        const field = result.ok ? findEmvField(result.value.fields, id) : undefined;
        if (typeof value === "string") expect(field?.value).toBe(value);
        else expect(field?.children?.map((child) => child.id)).toEqual(value?.map(([childId]) => childId));
      }
    },
  );

  it.each([
    [
      "an ID that is not two digits",
      () => encodeEmvFields([["5", "x"]]),
      'EMV ID must be two digits, got "5"',
    ],
    [
      "an empty value",
      () => encodeEmvFields([["59", ""]]),
      "EMV tag 59 value must be 1–99 characters, got 0",
    ],
    [
      "a value over 99",
      () => encodeEmvFields([["59", "x".repeat(100)]]),
      "EMV tag 59 value must be 1–99 characters, got 100",
    ],
  ])("throws on %s", (_name, build, message) => {
    expect(build).toThrow(new RangeError(message));
  });
});
