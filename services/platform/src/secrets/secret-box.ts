/**
 * Sealing of secrets a process must read back (an operator's TOTP secret): AES-256-GCM with a random
 * 96-bit nonce, bound by associated data to the row it belongs to, so a sealed value copied onto another
 * row does not open. Same stored form as the webhooks service's receiver secrets:
 * `v1.<key id>.<base64url(nonce | tag | ciphertext)>`, the key id a fingerprint of the key (under a label
 * per use), so a value sealed under another key fails with a message that says so.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = "v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SEALING_KEY_BYTES = 32;

export interface SecretBox {
  readonly keyId: string;
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** `label` names the use of the key (its fingerprint differs per label). */
export function createSecretBox(key: Uint8Array, label: string): SecretBox {
  if (key.length !== SEALING_KEY_BYTES) {
    throw new RangeError(`a sealing key is ${SEALING_KEY_BYTES} bytes, got ${key.length}`);
  }
  const keyId = createHash("sha256").update(label).update(key).digest("hex").slice(0, 16);
  return {
    keyId,
    seal(plaintext, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `${VERSION}.${keyId}.${Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]).toString("base64url")}`;
    },
    open(sealed, context) {
      const [version, sealedKeyId, payload, ...rest] = sealed.split(".");
      if (version !== VERSION || payload === undefined || rest.length > 0) {
        throw new Error("sealed secret has an unknown format");
      }
      if (sealedKeyId !== keyId) {
        throw new Error(`secret was sealed with key ${sealedKeyId}, but the configured key is ${keyId}`);
      }
      const packed = Buffer.from(payload, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, packed.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(packed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(packed.subarray(NONCE_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    },
  };
}

/** A key given as 64 hex digits or as base64 / base64url of 32 bytes. */
export function parseSealingKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)
      ? Buffer.from(trimmed, "base64")
      : Buffer.alloc(0);
  if (key.length !== SEALING_KEY_BYTES) {
    throw new Error(
      `expected ${SEALING_KEY_BYTES} bytes as 64 hex digits or base64 (e.g. \`openssl rand -base64 32\`)`,
    );
  }
  return key;
}
