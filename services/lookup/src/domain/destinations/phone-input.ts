/** A phone number as typed, reduced to its digits. */
export interface PhoneInput {
  /** True when the number started with "+", i.e. carries a country calling code. */
  readonly international: boolean;
  readonly digits: string;
}

/**
 * Strips the separators people type in phone numbers (spaces, hyphens, dots, parentheses). Undefined
 * when anything else than digits and an optional leading "+" remains.
 */
export function parsePhoneInput(raw: string): PhoneInput | undefined {
  const match = /^(\+?)(\d+)$/.exec(raw.replace(/[\s().-]/g, ""));
  if (match === null) return undefined;
  return { international: match[1] === "+", digits: match[2] ?? "" };
}
