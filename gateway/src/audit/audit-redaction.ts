/**
 * The one rule for what of an admin request body the audit trail keeps: everything except secrets. A
 * property whose name says it holds a secret has its value replaced by `"[redacted]"`, at any depth: the
 * name, once lower-cased with `-` and `_` removed, contains one of SECRET_NAME_PARTS or equals one of
 * SECRET_NAMES, and it does not end in `id` or `ids` (`secret_id`, `token_id` name a secret without holding it).
 * So `password`, `new_password`, `client_secret`, `signing_secret`, `webhook_secret`,
 * `access_token`, `refresh_token`, `id_token`, `totp`, `totp_code`, `api_key`, `private_key` and
 * `basic_auth` credentials are never stored, whatever route sends them.
 */
export const REDACTED = "[redacted]";

const SECRET_NAME_PARTS = [
  "password",
  "passphrase",
  "secret",
  "token",
  "totp",
  "apikey",
  "privatekey",
  "signingkey",
  "credential",
  "authorization",
  "cookie",
  "codeverifier",
] as const;

const SECRET_NAMES: ReadonlySet<string> = new Set(["otp", "pin", "key"]);

export function isSecretName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[-_]/g, "");
  if (/ids?$/.test(plain)) return false;
  return SECRET_NAMES.has(plain) || SECRET_NAME_PARTS.some((part) => plain.includes(part));
}

/** `value` with every secret-named property's value replaced by REDACTED (a new value; `value` is kept). */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    out[name] = isSecretName(name) ? REDACTED : redactSecrets(inner);
  }
  return out;
}
