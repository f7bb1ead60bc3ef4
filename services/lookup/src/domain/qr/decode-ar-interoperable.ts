import { ok, type Result } from "../types.js";
import { commonDestinationFields, type SchemeDecoding } from "./decoded-qr.js";
import type { EmvMerchantData } from "./emv-merchant-data.js";
import { type EmvField, findEmvField, isMerchantAccountTemplate, templateGui } from "./emv-tlv.js";
import { invalidQr } from "./invalid-qr.js";

/**
 * Argentina interoperable QR (Transferencias 3.0). The BCRA/COELSA tag spec was not
 * found; the layout is the one of the analysed sample: an acquirer template (26–51) whose 00 is the
 * acquirer's GUI, and tag 50 whose 00 is the merchant's CUIT (11 digits).
 */
const MERCHANT_TAX_ID_TAG = "50";

export function decodeArInteroperable(
  fields: readonly EmvField[],
  common: EmvMerchantData,
): Result<SchemeDecoding> {
  const merchant = findEmvField(fields, MERCHANT_TAX_ID_TAG);
  const cuit = findEmvField(merchant?.children, "00")?.value;
  if (cuit === undefined) return invalidQr("Argentina QR: merchant CUIT (tag 50.00) is missing");
  if (!/^[0-9]{11}$/.test(cuit))
    return invalidQr(`Argentina QR: CUIT "${cuit}" in tag 50.00 must be 11 digits`);
  const acquirer = fields.find(isAcquirerTemplate);
  if (!acquirer) {
    return invalidQr(
      "Argentina QR: no acquirer template (tags 26–51 other than 50, with a GUI in sub-tag 00)",
    );
  }
  const gui = findEmvField(acquirer.children, "00")?.value ?? "";
  return ok({
    destination: {
      ...commonDestinationFields(common),
      payment_method: "payment_key",
      destination_type: "EMV_QR",
      payment_destination: cuit,
      payment_destination_code: gui,
      is_business: true,
      merchant_id: cuit,
    },
    gui,
    schemeData: { cuit, acquirer_tag: acquirer.id },
  });
}

function isAcquirerTemplate(field: EmvField): boolean {
  return isMerchantAccountTemplate(field) && field.id !== MERCHANT_TAX_ID_TAG && templateGui(field) !== "";
}
