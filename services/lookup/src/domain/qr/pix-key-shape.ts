/**
 * Shape of a Pix key as a BR Code carries it in 26-01. Shape only: check digits
 * and DICT existence belong to the typed-key validator and the rail.
 */
export type PixKeyType = "CPF" | "CNPJ" | "PHONE" | "EMAIL" | "EVP";

export interface PixKey {
  readonly type: PixKeyType;
  /** DICT canonical form: e-mail and EVP lower-cased. */
  readonly key: string;
}

const MAX_KEY_LENGTH = 77;
const CPF = /^[0-9]{11}$/;
const CNPJ = /^[0-9A-Z]{12}[0-9]{2}$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// DICT OpenAPI v1.8.0 pattern, applied after lower-casing.
const EMAIL =
  /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
// +55, a DDD, then a 9-digit mobile number starting with 9.
const MOBILE = /^\+55([0-9]{2})9[0-9]{8}$/;
const DDDS = new Set(
  "11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99".split(
    " ",
  ),
);

export function classifyPixKey(raw: string): PixKey | undefined {
  if (raw.length === 0 || raw.length > MAX_KEY_LENGTH) return undefined;
  if (CPF.test(raw)) return { type: "CPF", key: raw };
  if (CNPJ.test(raw)) return { type: "CNPJ", key: raw };
  const ddd = MOBILE.exec(raw)?.[1];
  if (ddd !== undefined) return DDDS.has(ddd) ? { type: "PHONE", key: raw } : undefined;
  const lower = raw.toLowerCase();
  if (EVP.test(lower)) return { type: "EVP", key: lower };
  if (EMAIL.test(lower)) return { type: "EMAIL", key: lower };
  return undefined;
}
