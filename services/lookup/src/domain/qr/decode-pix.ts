import { ok, type Result } from "../types.js";
import { commonDestinationFields, type SchemeDecoding } from "./decoded-qr.js";
import type { EmvMerchantData } from "./emv-merchant-data.js";
import { type EmvField, findEmvField } from "./emv-tlv.js";
import { invalidQr } from "./invalid-qr.js";
import { classifyPixKey, type PixKey } from "./pix-key-shape.js";

/** BR Code (the Central Bank of Brazil's Pix QR): Pix merchant account in tag 26, txid in 62-05. */
export const PIX_GUI = "br.gov.bcb.pix";

const TXID = /^(?:\*\*\*|[A-Za-z0-9]{1,25})$/;
// The manual writes the location without a scheme; an explicit https:// is tolerated and dropped.
const LOCATION = /^(?:https:\/\/)?([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?::[0-9]{1,5})?(?:\/\S*)?)$/;

export function decodePix(fields: readonly EmvField[], common: EmvMerchantData): Result<SchemeDecoding> {
  const account = findEmvField(fields, "26");
  if (!account) return invalidQr(`Pix merchant account template (tag 26, GUI ${PIX_GUI}) is missing`);
  const gui = findEmvField(account.children, "00")?.value ?? "";
  if (gui.toLowerCase() !== PIX_GUI) {
    return invalidQr(`wrong GUI in tag 26.00: "${gui}" is not ${PIX_GUI}`);
  }
  const rawKey = findEmvField(account.children, "01")?.value;
  const rawLocation = findEmvField(account.children, "25")?.value;
  if (rawKey !== undefined && rawLocation !== undefined) {
    return invalidQr(
      "Pix template 26 has both a key (26.01) and a URL (26.25); a BR Code carries one of them",
    );
  }
  const txid = common.additionalData.referenceLabel || "***";
  if (!TXID.test(txid)) {
    return invalidQr(`Pix txid in tag 62.05 must be 1–25 letters or digits, or ***; found "${txid}"`);
  }
  const description = findEmvField(account.children, "02")?.value ?? "";
  const base = { gui, txid, description, common };
  if (rawKey !== undefined) return staticPix(rawKey, base);
  if (rawLocation !== undefined) return dynamicPix(rawLocation, base);
  return invalidQr("Pix template 26 has neither a key (26.01) nor a URL (26.25)");
}

interface PixBase {
  readonly gui: string;
  readonly txid: string;
  readonly description: string;
  readonly common: EmvMerchantData;
}

function staticPix(rawKey: string, base: PixBase): Result<SchemeDecoding> {
  const key = classifyPixKey(rawKey);
  if (!key) {
    return invalidQr(
      `Pix key "${rawKey}" in tag 26.01 is not a CPF, CNPJ, +55 mobile number, e-mail or EVP key`,
    );
  }
  return ok({
    destination: {
      ...commonDestinationFields(base.common),
      payment_method: "payment_key",
      destination_type: `PIX_${key.type}`,
      payment_destination: key.key,
      payment_destination_code: "PIX",
      is_business: isBusinessKey(key),
    },
    gui: base.gui,
    schemeData: { key_type: key.type, txid: base.txid, description: base.description, url: "" },
  });
}

function dynamicPix(rawLocation: string, base: PixBase): Result<SchemeDecoding> {
  const location = LOCATION.exec(rawLocation)?.[1];
  if (location === undefined) {
    return invalidQr(
      `Pix URL "${rawLocation}" in tag 26.25 is not a payload location (host/path, https only)`,
    );
  }
  return ok({
    destination: {
      ...commonDestinationFields(base.common),
      // The key and the final amount live in the payload at the URL; the QR itself is the destination.
      is_dynamic: true,
      payment_method: "payment_key",
      destination_type: "EMV_QR",
      payment_destination: location,
      payment_destination_code: "PIX",
      is_business: false,
    },
    gui: base.gui,
    schemeData: { key_type: "", txid: base.txid, description: base.description, url: location },
  });
}

const isBusinessKey = (key: PixKey) => key.type === "CNPJ";
