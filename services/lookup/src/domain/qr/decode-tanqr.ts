import { ok, type Result } from "../types.js";
import type { SchemeDecoding } from "./decoded-qr.js";
import type { EmvMerchantData } from "./emv-merchant-data.js";
import { type EmvField, findEmvField, isMerchantAccountTemplate, templateGui } from "./emv-tlv.js";
import { invalidQr } from "./invalid-qr.js";
import { tillOrPaybillDestination } from "./till-paybill-destination.js";

/**
 * TANQR (Bank of Tanzania). Its public summary has no tag layout; this follows the
 * published static merchant sample and TIPS payloads: template 26 with GUI `tz.go.bot.tips`, 01 = 5-digit
 * acquirer id, 02 = merchant id (the Lipa Namba, up to 15 digits). TANQR pays merchants, so it is a till.
 */
export const TANQR_GUI = "tz.go.bot.tips";

export function decodeTanQr(fields: readonly EmvField[], common: EmvMerchantData): Result<SchemeDecoding> {
  const account = fields.find(
    (field) => isMerchantAccountTemplate(field) && templateGui(field) === TANQR_GUI,
  );
  if (!account) return invalidQr(`TANQR merchant account template (GUI ${TANQR_GUI}) is missing`);
  const acquirerId = findEmvField(account.children, "01")?.value ?? "";
  if (acquirerId !== "" && !/^[0-9]{5}$/.test(acquirerId)) {
    return invalidQr(`TANQR acquirer id "${acquirerId}" in tag ${account.id}.01 must be 5 digits`);
  }
  const merchantId = findEmvField(account.children, "02")?.value;
  if (merchantId === undefined) return invalidQr(`TANQR merchant id (tag ${account.id}.02) is missing`);
  if (!/^[0-9]{5,15}$/.test(merchantId)) {
    return invalidQr(`TANQR merchant id "${merchantId}" in tag ${account.id}.02 must be 5–15 digits`);
  }
  return ok({
    destination: tillOrPaybillDestination(common, merchantId, "till", ""),
    gui: TANQR_GUI,
    schemeData: { account_tag: account.id, acquirer_id: acquirerId },
  });
}
