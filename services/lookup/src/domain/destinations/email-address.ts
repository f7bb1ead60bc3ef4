/**
 * E-mail address pattern of the Pix DICT API (bacen/pix-dict-api openapi.yaml), applied to lower-case
 * input. Also used for Bre-B keys, for which no stricter official pattern was found.
 */
const EMAIL_PATTERN =
  /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** True when `value` (already lower-cased by the caller when it normalises) is an address of at most `maxLength`. */
export const isEmailAddress = (value: string, maxLength: number): boolean =>
  value.length <= maxLength && EMAIL_PATTERN.test(value);
