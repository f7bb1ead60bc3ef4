import { ok, type Result } from "../types.js";
import { parseEmvAmount } from "./emv-amount.js";
import { currencyByNumericCode, type EmvCurrency } from "./emv-currency.js";
import { type EmvField, findEmvField } from "./emv-tlv.js";
import { invalidQr } from "./invalid-qr.js";

/** The scheme-independent part of an EMV MPM payload, checked and normalised. */
export interface EmvMerchantData {
  readonly isDynamic: boolean;
  readonly merchantCategoryCode: string;
  readonly currency: EmvCurrency;
  /** Decimal string in the currency's minor units; "" when the payer chooses the amount. */
  readonly amount: string;
  readonly countryCode: string;
  readonly merchantName: string;
  readonly merchantCity: string;
  readonly postalCode: string;
  readonly additionalData: AdditionalData;
}

/** Tag 62 sub-fields; "" when absent. */
export interface AdditionalData {
  readonly billNumber: string;
  readonly mobileNumber: string;
  readonly storeLabel: string;
  readonly loyaltyNumber: string;
  readonly referenceLabel: string;
  readonly customerLabel: string;
  readonly terminalLabel: string;
  readonly purpose: string;
}

/** What a scheme expects of the common fields. */
export interface MerchantDataRules {
  readonly schemeName: string;
  readonly currencyNumeric: string;
  /** Among 52, 59, 60: the ones this scheme makes mandatory (53 and 58 always are). */
  readonly requiredTags: readonly string[];
}

const TAG_NAMES: Readonly<Record<string, string>> = {
  "52": "merchant category code",
  "53": "transaction currency",
  "58": "country code",
  "59": "merchant name",
  "60": "merchant city",
};

const MAX_LENGTHS: ReadonlyArray<readonly [id: string, name: string, max: number]> = [
  ["59", "merchant name", 25],
  ["60", "merchant city", 15],
  ["61", "postal code", 10],
];

export function readMerchantData(
  fields: readonly EmvField[],
  rules: MerchantDataRules,
): Result<EmvMerchantData> {
  const value = (id: string) => findEmvField(fields, id)?.value ?? "";
  for (const id of ["53", "58", ...rules.requiredTags]) {
    if (!findEmvField(fields, id)) {
      return invalidQr(`${rules.schemeName}: required tag ${id} (${TAG_NAMES[id] ?? "field"}) is missing`);
    }
  }
  const shape = checkShapes(fields);
  if (!shape.ok) return shape;
  const currency = readCurrency(value("53"), rules);
  if (!currency.ok) return currency;
  const amount = findEmvField(fields, "54") ? parseEmvAmount(value("54"), currency.value) : ok("");
  if (!amount.ok) return amount;
  return ok({
    isDynamic: value("01") === "12",
    merchantCategoryCode: value("52"),
    currency: currency.value,
    amount: amount.value,
    countryCode: value("58"),
    merchantName: value("59"),
    merchantCity: value("60"),
    postalCode: value("61"),
    additionalData: readAdditionalData(findEmvField(fields, "62")?.children),
  });
}

function checkShapes(fields: readonly EmvField[]): Result<true> {
  const poi = findEmvField(fields, "01")?.value;
  if (poi !== undefined && poi !== "11" && poi !== "12") {
    return invalidQr(`point of initiation (tag 01) must be 11 (static) or 12 (dynamic), found "${poi}"`);
  }
  const mcc = findEmvField(fields, "52")?.value;
  if (mcc !== undefined && !/^[0-9]{4}$/.test(mcc)) {
    return invalidQr(`merchant category code (tag 52) must be 4 digits, found "${mcc}"`);
  }
  for (const [id, name, max] of MAX_LENGTHS) {
    const text = findEmvField(fields, id)?.value;
    if (text !== undefined && Array.from(text).length > max) {
      return invalidQr(
        `${name} (tag ${id}) has ${Array.from(text).length} characters; at most ${max} are allowed`,
      );
    }
  }
  return ok(true);
}

function readCurrency(numeric: string, rules: MerchantDataRules): Result<EmvCurrency> {
  if (!/^[0-9]{3}$/.test(numeric)) {
    return invalidQr(`transaction currency (tag 53) must be a 3-digit ISO 4217 code, found "${numeric}"`);
  }
  const currency = currencyByNumericCode(numeric);
  if (!currency) return invalidQr(`unknown or unsupported currency ${numeric} in tag 53`);
  const expected = currencyByNumericCode(rules.currencyNumeric);
  if (currency.numeric !== rules.currencyNumeric) {
    return invalidQr(
      `${rules.schemeName}: currency must be ${expected?.alpha ?? rules.currencyNumeric} (${rules.currencyNumeric}), found ${currency.alpha} (${numeric}) in tag 53`,
    );
  }
  return ok(currency);
}

function readAdditionalData(children: readonly EmvField[] | undefined): AdditionalData {
  const sub = (id: string) => findEmvField(children, id)?.value ?? "";
  return {
    billNumber: sub("01"),
    mobileNumber: sub("02"),
    storeLabel: sub("03"),
    loyaltyNumber: sub("04"),
    referenceLabel: sub("05"),
    customerLabel: sub("06"),
    terminalLabel: sub("07"),
    purpose: sub("08"),
  };
}
