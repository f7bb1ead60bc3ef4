/**
 * Every EMV merchant-presented QR starts with the payload format indicator "000201" (tag 00, length 02,
 * value 01). The shortest conforming payload (tags 00, 52, 53, 58, 59, 60, 63) runs past 30 characters,
 * while the longest typed destination that can start with digits, a CBU/CVU, has 22; so a CVU that
 * happens to begin with 000201 is never taken for a QR.
 */
const MIN_EMV_LENGTH = 30;

/** True when `value` looks like a scanned EMV QR payload, which belongs to decodeQr, not lookup. */
export function looksLikeEmvQr(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.startsWith("000201") && trimmed.length >= MIN_EMV_LENGTH;
}
