/**
 * Exact USD arithmetic for the audit: the ledger stores NUMERIC(38,18), so every amount is an integer
 * number of 10^-18 USD. BigInt keeps it exact without a decimal library.
 */
const SCALE = 18;
const UNIT = 10n ** BigInt(SCALE);

/** "12.5" → 12500000000000000000n; throws on anything that is not a plain decimal of ≤ 18 places. */
export function toAttoUsd(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,18}))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal amount: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = ""] = match;
  const units = BigInt(whole!) * UNIT + BigInt(fraction.padEnd(SCALE, "0"));
  return sign === "-" ? -units : units;
}

/** 12500000000000000000n → "12.5" (no trailing zeros, no exponent). */
export function formatUsd(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / UNIT;
  const fraction = (abs % UNIT).toString().padStart(SCALE, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

export function sumUsd(amounts: Iterable<string>): bigint {
  let total = 0n;
  for (const amount of amounts) total += toAttoUsd(amount);
  return total;
}
