import { ok, type Recipient, type Result } from "../types.js";
import { commonDestinationFields, type SchemeDecoding } from "./decoded-qr.js";
import type { EmvMerchantData } from "./emv-merchant-data.js";
import { type EmvField, findEmvField, parseEmvTemplate } from "./emv-tlv.js";
import { invalidQr } from "./invalid-qr.js";

/** VietQR: NAPAS template in tag 38 = GUID, beneficiary (BIN + id), service code. */
export const NAPAS_AID = "A000000727";

type ServiceCode = "QRIBFTTA" | "QRIBFTTC" | "QRPUSH";

interface ServiceRule {
  readonly idPattern: RegExp;
  readonly idDescription: string;
  readonly destinationType: string;
  readonly isBusiness: boolean;
}

const SERVICES: Readonly<Record<ServiceCode, ServiceRule>> = {
  // Account numbers have no national format; banks use roughly 6–19 digits.
  QRIBFTTA: {
    idPattern: /^[0-9]{6,19}$/,
    idDescription: "an account number of 6–19 digits",
    destinationType: "VN_ACCOUNT",
    isBusiness: false,
  },
  // NAPAS cards start 9704; the consumer id caps them at 19 characters.
  QRIBFTTC: {
    idPattern: /^9704[0-9]{12,15}$/,
    idDescription: "a 16–19 digit card number starting 9704",
    destinationType: "VN_CARD",
    isBusiness: false,
  },
  QRPUSH: {
    idPattern: /^[A-Za-z0-9]{1,19}$/,
    idDescription: "a merchant id of 1–19 letters or digits",
    destinationType: "EMV_QR",
    isBusiness: true,
  },
};

const isServiceCode = (code: string): code is ServiceCode => Object.hasOwn(SERVICES, code);

export function decodeVietQr(fields: readonly EmvField[], common: EmvMerchantData): Result<SchemeDecoding> {
  const template = findEmvField(fields, "38");
  if (!template) return invalidQr(`VietQR merchant account template (tag 38, GUID ${NAPAS_AID}) is missing`);
  const gui = findEmvField(template.children, "00")?.value ?? "";
  if (gui.toUpperCase() !== NAPAS_AID)
    return invalidQr(`wrong GUI in tag 38.00: "${gui}" is not ${NAPAS_AID}`);
  const beneficiary = readBeneficiary(findEmvField(template.children, "01"));
  if (!beneficiary.ok) return beneficiary;
  const serviceCode = findEmvField(template.children, "02")?.value;
  if (serviceCode === undefined) {
    return invalidQr("VietQR service code (tag 38.02) is missing; expected QRIBFTTA, QRIBFTTC or QRPUSH");
  }
  if (!isServiceCode(serviceCode)) {
    return invalidQr(
      `unknown VietQR service code "${serviceCode}" in tag 38.02; expected QRIBFTTA, QRIBFTTC or QRPUSH`,
    );
  }
  const rule = SERVICES[serviceCode];
  const { bin, id } = beneficiary.value;
  if (!rule.idPattern.test(id)) {
    return invalidQr(`VietQR ${serviceCode} needs ${rule.idDescription} in tag 38.01.01, found "${id}"`);
  }
  return ok({
    destination: {
      ...commonDestinationFields(common),
      payment_method: "bank_transfer",
      destination_type: rule.destinationType,
      payment_destination: id,
      payment_destination_code: bin,
      is_business: rule.isBusiness,
      merchant_id: id,
      account_reference: bin,
      recipient: recipientOf(common, serviceCode, bin, id),
    },
    gui,
    schemeData: { service_code: serviceCode, bin },
  });
}

function readBeneficiary(field: EmvField | undefined): Result<{ bin: string; id: string }> {
  if (!field) return invalidQr("VietQR beneficiary template (tag 38.01) is missing");
  const parsed = parseEmvTemplate(field);
  if (!parsed.ok) return invalidQr(parsed.error.message);
  const bin = findEmvField(parsed.value, "00")?.value;
  const id = findEmvField(parsed.value, "01")?.value;
  if (bin === undefined) return invalidQr("VietQR bank BIN (tag 38.01.00) is missing");
  if (!/^[0-9]{6}$/.test(bin)) return invalidQr(`VietQR bank BIN "${bin}" in tag 38.01.00 must be 6 digits`);
  if (id === undefined) return invalidQr("VietQR account or card number (tag 38.01.01) is missing");
  return ok({ bin, id });
}

function recipientOf(common: EmvMerchantData, service: ServiceCode, bin: string, id: string): Recipient {
  const name: Recipient = common.merchantName === "" ? {} : { name: common.merchantName };
  // A merchant id is not an account number, so it is not shown as one.
  return service === "QRPUSH" ? { ...name, bank_no: bin } : { ...name, account_no: id, bank_no: bin };
}
