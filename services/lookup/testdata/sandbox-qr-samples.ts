import type { QrScheme } from "../src/domain/qr/decoded-qr.js";
import { type EmvRecord, encodeEmvRecord } from "../src/domain/qr/encode-emv.js";

/**
 * One fictional, decodable QR per scheme, for sandbox curl examples and as test fixtures. Values come from
 * published test vectors where there are some (Pix EVP key, NAPAS BIN 970436, Daraja sandbox short code).
 */
export const SANDBOX_QR_FIELDS: Readonly<Record<QrScheme, EmvRecord>> = {
  PIX: {
    "00": "01",
    "26": [
      ["00", "br.gov.bcb.pix"],
      ["01", "123e4567-e89b-12d3-a456-426655440000"],
    ],
    "52": "0000",
    "53": "986",
    "54": "150.00",
    "58": "BR",
    "59": "LOJA EXEMPLO LTDA",
    "60": "SAO PAULO",
    "62": [["05", "PEDIDO123"]],
  },
  VIETQR: {
    "00": "01",
    "01": "12",
    "38": [
      ["00", "A000000727"],
      [
        "01",
        [
          ["00", "970436"],
          ["01", "0011001234567"],
        ],
      ],
      ["02", "QRIBFTTA"],
    ],
    "53": "704",
    "54": "150000",
    "58": "VN",
    "62": [["08", "THANH TOAN DON 123"]],
  },
  AR_INTEROPERABLE: {
    "00": "01",
    "01": "11",
    "40": [
      ["00", "ar.com.example.acquirer"],
      ["02", "23"],
    ],
    "50": [["00", "30712345671"]],
    "52": "5411",
    "53": "032",
    "58": "AR",
    "59": "ALMACEN EJEMPLO SA",
    "60": "BUENOS AIRES",
  },
  KE_QR: {
    "00": "01",
    "01": "11",
    "28": [
      ["00", "ke.go.qr"],
      ["01", "174379"],
    ],
    "52": "5411",
    "53": "404",
    "58": "KE",
    "59": "EXAMPLE SUPERMARKET",
    "60": "NAIROBI",
  },
  TANQR: {
    "00": "01",
    "01": "11",
    "26": [
      ["00", "tz.go.bot.tips"],
      ["01", "01001"],
      ["02", "12345678"],
    ],
    "52": "5814",
    "53": "834",
    "58": "TZ",
    "59": "DUKA LA MFANO",
    "60": "DODOMA",
  },
};

export const SANDBOX_QR_PAYLOADS: Readonly<Record<QrScheme, string>> = {
  PIX: encodeEmvRecord(SANDBOX_QR_FIELDS.PIX),
  VIETQR: encodeEmvRecord(SANDBOX_QR_FIELDS.VIETQR),
  AR_INTEROPERABLE: encodeEmvRecord(SANDBOX_QR_FIELDS.AR_INTEROPERABLE),
  KE_QR: encodeEmvRecord(SANDBOX_QR_FIELDS.KE_QR),
  TANQR: encodeEmvRecord(SANDBOX_QR_FIELDS.TANQR),
};
