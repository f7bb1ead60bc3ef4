/** Client-side checks that mirror the API's, so mistakes are caught before a request (the API still decides). */

const DECIMAL = /^\d+(\.\d+)?$/;

/** Undefined when valid, else the message to show next to the field. */
export function checkPositiveDecimal(value: string, label: string, maxDecimals?: number): string | undefined {
  const text = value.trim();
  if (text === "") return `${label} is required.`;
  if (!DECIMAL.test(text)) return `${label} must be a decimal number such as 5.4 (digits and one dot).`;
  if (maxDecimals !== undefined && (text.split(".")[1]?.length ?? 0) > maxDecimals) {
    return `${label} may have at most ${maxDecimals} decimals.`;
  }
  if (!/[1-9]/.test(text)) return `${label} must be greater than zero.`;
  return undefined;
}

export function checkNonNegativeDecimal(value: string, label: string): string | undefined {
  const text = value.trim();
  if (text === "") return `${label} is required.`;
  if (!DECIMAL.test(text)) return `${label} must be a decimal number such as 1.5 (digits and one dot).`;
  return undefined;
}

/** Compares two non-negative decimal strings exactly. */
export function compareDecimals(a: string, b: string): number {
  const [ai = "0", af = ""] = a.trim().split(".");
  const [bi = "0", bf = ""] = b.trim().split(".");
  const ia = ai.replace(/^0+(?=\d)/, "");
  const ib = bi.replace(/^0+(?=\d)/, "");
  if (ia.length !== ib.length) return ia.length < ib.length ? -1 : 1;
  if (ia !== ib) return ia < ib ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const fa = af.padEnd(width, "0");
  const fb = bf.padEnd(width, "0");
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

export const CURRENCY = /^[A-Z]{3}$/;
export const COUNTRY = /^[A-Z]{2}$/;
