import { ok, type Result } from "../types.js";
import { decodeArInteroperable } from "./decode-ar-interoperable.js";
import { decodeKeQr } from "./decode-ke-qr.js";
import { decodePix } from "./decode-pix.js";
import { decodeTanQr } from "./decode-tanqr.js";
import { decodeVietQr } from "./decode-vietqr.js";
import type { DecodedQr, QrScheme, SchemeDecoding } from "./decoded-qr.js";
import { type EmvMerchantData, type MerchantDataRules, readMerchantData } from "./emv-merchant-data.js";
import { type EmvField, findEmvField, isMerchantAccountTemplate, parseEmvPayload } from "./emv-tlv.js";
import { invalidQr } from "./invalid-qr.js";

interface SchemeRules extends MerchantDataRules {
  readonly scheme: QrScheme;
  readonly decode: (fields: readonly EmvField[], common: EmvMerchantData) => Result<SchemeDecoding>;
}

/** One scheme per country (tag 58): each national scheme is the only EMV QR we pay out to there. */
const SCHEMES_BY_COUNTRY: Readonly<Record<string, SchemeRules>> = {
  BR: {
    scheme: "PIX",
    schemeName: "Pix",
    currencyNumeric: "986",
    requiredTags: ["52", "59", "60"],
    decode: decodePix,
  },
  // Published VietQR transfer codes carry neither 52 nor 59/60.
  VN: {
    scheme: "VIETQR",
    schemeName: "VietQR",
    currencyNumeric: "704",
    requiredTags: [],
    decode: decodeVietQr,
  },
  AR: {
    scheme: "AR_INTEROPERABLE",
    schemeName: "Argentina interoperable QR",
    currencyNumeric: "032",
    requiredTags: ["52", "59", "60"],
    decode: decodeArInteroperable,
  },
  // Observed M-PESA KE-QR codes have no merchant city.
  KE: {
    scheme: "KE_QR",
    schemeName: "KE-QR",
    currencyNumeric: "404",
    requiredTags: ["52", "59"],
    decode: decodeKeQr,
  },
  TZ: {
    scheme: "TANQR",
    schemeName: "TANQR",
    currencyNumeric: "834",
    requiredTags: ["52", "59", "60"],
    decode: decodeTanQr,
  },
};

const SUPPORTED = "Pix (BR), VietQR (VN), Argentina interoperable QR (AR), KE-QR (KE), TANQR (TZ)";

/**
 * Decodes a scanned EMV merchant-presented QR into a destination. Every failure is INVALID_QR on
 * field qr_string, with a message that says what is wrong.
 */
export function decodeQr(qrString: string): Result<DecodedQr> {
  // Scanners often hand over a trailing newline; nothing valid can sit outside "00…6304XXXX".
  const payload = qrString.trim();
  const parsed = parseEmvPayload(payload);
  if (!parsed.ok) return invalidQr(parsed.error.message);
  const { fields } = parsed.value;
  const rules = schemeFor(fields);
  if (!rules.ok) return rules;
  const common = readMerchantData(fields, rules.value);
  if (!common.ok) return common;
  const decoded = rules.value.decode(fields, common.value);
  if (!decoded.ok) return decoded;
  return ok(assemble(rules.value.scheme, payload, common.value, decoded.value));
}

function schemeFor(fields: readonly EmvField[]): Result<SchemeRules> {
  const country = findEmvField(fields, "58")?.value;
  if (country === undefined) return invalidQr("required tag 58 (country code) is missing");
  if (!/^[A-Z]{2}$/.test(country))
    return invalidQr(`country code (tag 58) must be 2 upper-case letters, found "${country}"`);
  const rules = SCHEMES_BY_COUNTRY[country];
  if (rules) return ok(rules);
  return invalidQr(
    `unsupported QR scheme: country ${country}, ${describeAccounts(fields)}; supported: ${SUPPORTED}`,
  );
}

function describeAccounts(fields: readonly EmvField[]): string {
  const guis = fields
    .filter(isMerchantAccountTemplate)
    .map((field) => `${field.id} ${findEmvField(field.children, "00")?.value ?? "(no GUI)"}`);
  return guis.length === 0 ? "no merchant account template" : `merchant accounts ${guis.join(", ")}`;
}

function assemble(
  scheme: QrScheme,
  payload: string,
  common: EmvMerchantData,
  decoded: SchemeDecoding,
): DecodedQr {
  const extra = common.additionalData;
  return {
    scheme,
    destination: decoded.destination,
    details: {
      payload,
      point_of_initiation: decoded.destination.is_dynamic ? "dynamic" : "static",
      merchant_category_code: common.merchantCategoryCode,
      merchant_city: common.merchantCity,
      postal_code: common.postalCode,
      gui: decoded.gui,
      bill_number: extra.billNumber,
      reference_label: extra.referenceLabel,
      purpose: extra.purpose,
      store_label: extra.storeLabel,
      terminal_label: extra.terminalLabel,
      scheme_data: decoded.schemeData,
    },
  };
}
