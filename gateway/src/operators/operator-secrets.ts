/**
 * The secrets of operators and machine credentials: passwords as argon2id hashes (memory-hard; the
 * parameters travel with the hash), TOTP secrets sealed (AES-256-GCM) under OPERATOR_SECRET_KEY or a key
 * kept in `gateway.sealing_keys`, and random bearer tokens and session ids stored as their SHA-256 (they
 * carry 256 bits of randomness, so a fast hash is enough).
 */
import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import type { Queryable } from "@payouts/platform/database/database";
import { createSecretBox, type SecretBox } from "@payouts/platform/secrets/secret-box";
import { Secret, TOTP } from "otpauth";

/** Algorithm 2 = Argon2id; OWASP's minimum of 19 MiB, 2 passes, 1 lane. */
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored === null) return false;
  return verify(stored, password).catch(() => false);
}

/** A password with 128 bits of randomness, for `operators add` without one given. */
export const generatePassword = (): string => randomBytes(16).toString("base64url");

/** A random bearer value (machine token, session id) and the digest it is stored as. */
export const randomToken = (prefix: string): string => `${prefix}${randomBytes(32).toString("base64url")}`;
export const tokenDigest = (token: string): string => createHash("sha256").update(token).digest("hex");

const TOTP_PERIOD_SECONDS = 30;

function totpOf(secretBase32: string, username: string): TOTP {
  return new TOTP({
    issuer: "Payouts",
    label: username,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

export function newTotpSecret(username: string): { secretBase32: string; uri: string } {
  const secretBase32 = new Secret({ size: 20 }).base32;
  return { secretBase32, uri: totpOf(secretBase32, username).toString() };
}

/** The current code of a secret (tests and the embedded sandbox's own sign-in). */
export const totpCode = (secretBase32: string, at = Date.now()): string =>
  totpOf(secretBase32, "x").generate({ timestamp: at });

/** The time step of `code` when it is valid now (one step of clock drift either way), else undefined. */
export function totpStep(secretBase32: string, code: string, at = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secretBase32, "x").validate({ token: code, timestamp: at, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(at / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

const SEALING_LABEL = "payouts-operator-sealing-key";

/** The associated data a TOTP secret is sealed under: it opens only on its own operator's row. */
export const totpContext = (operatorId: string): string =>
  `gateway.operators.totp_secret_sealed:${operatorId}`;

/**
 * The box TOTP secrets are sealed with: OPERATOR_SECRET_KEY when configured, else a key generated on first
 * use and kept in `gateway.sealing_keys` (shared by every gateway replica and the CLI on the database).
 */
export async function operatorSecretBox(
  db: Queryable,
  configuredKey: Buffer | undefined,
): Promise<SecretBox> {
  if (configuredKey) return createSecretBox(configuredKey, SEALING_LABEL);
  await db.query(
    `INSERT INTO gateway.sealing_keys (key_id, key_base64) VALUES ('operators', $1) ON CONFLICT (key_id) DO NOTHING`,
    [randomBytes(32).toString("base64")],
  );
  const res = await db.query<{ key_base64: string }>(
    "SELECT key_base64 FROM gateway.sealing_keys WHERE key_id = 'operators'",
  );
  return createSecretBox(Buffer.from(res.rows[0]!.key_base64, "base64"), SEALING_LABEL);
}
