import { ok, type PaymentType, type Result } from "../types.js";
import type { SchemeDecoding } from "./decoded-qr.js";
import type { EmvMerchantData } from "./emv-merchant-data.js";
import { type EmvField, findEmvField, isMerchantAccountTemplate, templateGui } from "./emv-tlv.js";
import { invalidQr } from "./invalid-qr.js";
import { tillOrPaybillDestination } from "./till-paybill-destination.js";

/**
 * KE-QR (CBK standard 2023). The standard's public summary has no tag layout; this follows payloads
 * observed from M-PESA: a template (28 in practice) with GUI `ke.go.qr` and the till or paybill number in
 * sub-tag 01. It is a paybill when 62-01 (bill number = account reference, or *** when the payer gives it)
 * is present or when the M-PESA routing template (GUI `m-pesa.com`) says transaction type 04; else a till.
 */
export const KE_QR_GUI = "ke.go.qr";
const MPESA_GUI = "m-pesa.com";
const MPESA_PAYBILL_TYPE = "04";
const CONSUMER_PROVIDES = "***";

export function decodeKeQr(fields: readonly EmvField[], common: EmvMerchantData): Result<SchemeDecoding> {
  const templates = fields.filter(
    (field) => isMerchantAccountTemplate(field) && templateGui(field) === KE_QR_GUI,
  );
  if (templates.length === 0)
    return invalidQr(`KE-QR merchant account template (GUI ${KE_QR_GUI}) is missing`);
  const account = templates.find((field) => findEmvField(field.children, "01") !== undefined);
  const merchantNumber = findEmvField(account?.children, "01")?.value;
  if (account === undefined || merchantNumber === undefined) {
    return invalidQr(`KE-QR template ${templates[0]?.id} has no till or paybill number (sub-tag 01)`);
  }
  // Till and paybill numbers are M-PESA short codes of 5–7 digits.
  if (!/^[0-9]{5,7}$/.test(merchantNumber)) {
    return invalidQr(
      `KE-QR till or paybill number "${merchantNumber}" in tag ${account.id}.01 must be 5–7 digits`,
    );
  }
  const billNumber = common.additionalData.billNumber;
  // EMV's "***" asks the payer for the value: a paybill whose account reference is still to be given.
  const accountReference = billNumber === CONSUMER_PROVIDES ? "" : billNumber;
  if (accountReference !== "" && !/^[A-Za-z0-9]{1,12}$/.test(accountReference)) {
    return invalidQr(
      `paybill account reference "${accountReference}" in tag 62.01 must be 1–12 letters or digits`,
    );
  }
  const paymentType: PaymentType = billNumber !== "" || isMpesaPaybill(fields) ? "paybill" : "till";
  return ok({
    destination: tillOrPaybillDestination(common, merchantNumber, paymentType, accountReference),
    gui: KE_QR_GUI,
    schemeData: { account_tag: account.id },
  });
}

function isMpesaPaybill(fields: readonly EmvField[]): boolean {
  const routing = fields.find((field) => Number(field.id) >= 80 && templateGui(field) === MPESA_GUI);
  return findEmvField(routing?.children, "01")?.value === MPESA_PAYBILL_TYPE;
}
