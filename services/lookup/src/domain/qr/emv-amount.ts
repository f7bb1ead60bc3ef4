import { ok, type Result } from "../types.js";
import type { EmvCurrency } from "./emv-currency.js";
import { invalidQr } from "./invalid-qr.js";

const MAX_AMOUNT_CHARS = 13;
const AMOUNT_SHAPE = /^([0-9]+)(?:\.([0-9]+))?$/;

/**
 * Reads tag 54 into a decimal string with the currency's minor units ("150" BRL → "150.00"), by string
 * arithmetic only. A zero amount is read as "no amount" (""), so the payer is asked for one.
 */
export function parseEmvAmount(raw: string, currency: EmvCurrency): Result<string> {
  const shape = AMOUNT_SHAPE.exec(raw);
  if (raw.length > MAX_AMOUNT_CHARS || !shape) {
    return invalidQr(
      `amount "${raw}" in tag 54 must be digits with an optional "." and at most 13 characters`,
    );
  }
  const whole = (shape[1] ?? "").replace(/^0+(?=[0-9])/, "");
  const fraction = shape[2] ?? "";
  if (fraction.length > 2) {
    return invalidQr(`amount "${raw}" in tag 54 has ${fraction.length} decimals; EMV allows at most 2`);
  }
  // Zeros beyond the currency's minor units change nothing ("50000.00" VND), other digits would be lost.
  if (/[1-9]/.test(fraction.slice(currency.minorUnits))) {
    return invalidQr(
      `amount "${raw}" in tag 54 has more decimals than ${currency.alpha} allows (${currency.minorUnits})`,
    );
  }
  const kept = fraction.slice(0, currency.minorUnits).padEnd(currency.minorUnits, "0");
  if (/^0+$/.test(whole + kept)) return ok("");
  return ok(kept === "" ? whole : `${whole}.${kept}`);
}
