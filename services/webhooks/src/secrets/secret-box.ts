/**
 * Sealing of the secrets the dispatcher must be able to read back (a receiver's signing secret, its
 * basic-auth password): AES-256-GCM with a random 96-bit nonce, bound by associated data to the row and
 * column it belongs to, so a sealed value copied into another configuration does not open.
 *
 * Stored form: `v1.<key id>.<base64url(nonce | tag | ciphertext)>`. The key id is a fingerprint of the key,
 * so a value sealed under another key fails with a message that says so instead of a bare auth error.
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

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== SEALING_KEY_BYTES) {
    throw new RangeError(`a sealing key is ${SEALING_KEY_BYTES} bytes, got ${key.length}`);
  }
  const keyId = sealingKeyId(key);
  return {
    keyId,
    seal(plaintext, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const packed = Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]);
      return `${VERSION}.${keyId}.${packed.toString("base64url")}`;
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
      const plaintext = Buffer.concat([
        decipher.update(packed.subarray(NONCE_BYTES + TAG_BYTES)),
        decipher.final(),
      ]);
      return plaintext.toString("utf8");
    },
  };
}

/** Public fingerprint of a key: 8 bytes of SHA-256 over a label and the key, hex. */
export function sealingKeyId(key: Uint8Array): string {
  return createHash("sha256").update("payouts-webhook-sealing-key").update(key).digest("hex").slice(0, 16);
}

/** `WEBHOOK_SECRET_KEY`: 32 bytes as 64 hex digits or as base64 / base64url. */
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

export function generateSealingKey(): Buffer {
  return randomBytes(SEALING_KEY_BYTES);
}
