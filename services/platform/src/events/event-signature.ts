/**
 * Ed25519 signatures of the events the ledger publishes, so that a consumer can tell the ledger's events
 * from anything else a producer managed to put on the topic. The signature is detached, over the exact
 * bytes of the message value, and travels in two headers: the signing key's id and the signature
 * (base64url). Both buses (Kafka, in-process) carry headers unchanged, so both modes sign and verify alike.
 *
 * Keys travel as one-line base64 DER: the private key as PKCS#8 (`openssl genpkey -algorithm ed25519
 * -outform DER | base64 -w0`), the public key as SPKI (`openssl pkey -pubout -outform DER | base64 -w0`).
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";
import type { EventMessage } from "./event-bus.js";

export const EVENT_SIGNATURE_HEADER = "event-signature";
export const EVENT_SIGNATURE_KEY_HEADER = "event-signature-key";

export interface EventSigner {
  /** The id of the key it signs with (what the consumer finds the public key by). */
  readonly keyId: string;
  /** The message with its signature headers added (any earlier ones replaced). */
  sign(message: EventMessage): EventMessage;
}

/** Why a message was refused: a stable word for metrics, and a sentence for the log. */
export type RefusalReason = "unsigned" | "unknown_key" | "bad_signature" | "no_keys";

export type Verification =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: RefusalReason; readonly problem: string };

export interface EventVerifier {
  verify(message: EventMessage): Verification;
}

/** A private key from its base64 PKCS#8 DER form; throws (without echoing it) unless it is Ed25519. */
export function parseSigningKey(raw: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: Buffer.from(raw.trim(), "base64"), format: "der", type: "pkcs8" });
  } catch {
    throw new Error("expected an Ed25519 private key as base64 PKCS#8 DER");
  }
  if (key.asymmetricKeyType !== "ed25519") throw new Error("expected an Ed25519 private key");
  return key;
}

/** Public keys from their comma-separated base64 SPKI DER forms (several while keys are rotated). */
export function parseVerifyKeys(raw: string): readonly KeyObject[] {
  const keys = raw
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part, i) => {
      let key: KeyObject;
      try {
        key = createPublicKey({ key: Buffer.from(part, "base64"), format: "der", type: "spki" });
      } catch {
        throw new Error(`key ${i + 1}: expected an Ed25519 public key as base64 SPKI DER`);
      }
      if (key.asymmetricKeyType !== "ed25519") throw new Error(`key ${i + 1}: expected an Ed25519 key`);
      return key;
    });
  if (keys.length === 0) throw new Error("expected at least one public key");
  return keys;
}

/** A public key's id: the first 16 base64url characters of the SHA-256 of its SPKI DER form. */
export function keyIdOf(key: KeyObject): string {
  const publicKey = key.type === "private" ? createPublicKey(key) : key;
  const der = publicKey.export({ format: "der", type: "spki" });
  return createHash("sha256").update(der).digest("base64url").slice(0, 16);
}

export function createEventSigner(privateKey: KeyObject): EventSigner {
  const keyId = keyIdOf(privateKey);
  return {
    keyId,
    sign(message) {
      const signature = sign(null, message.value, privateKey).toString("base64url");
      return {
        ...message,
        headers: {
          ...message.headers,
          [EVENT_SIGNATURE_KEY_HEADER]: keyId,
          [EVENT_SIGNATURE_HEADER]: signature,
        },
      };
    },
  };
}

/** Accepts a message signed by one of `publicKeys` over its exact value; refuses anything else. */
export function createEventVerifier(publicKeys: readonly KeyObject[]): EventVerifier {
  const byId = new Map(publicKeys.map((key) => [keyIdOf(key), key]));
  return {
    verify(message) {
      const keyId = message.headers[EVENT_SIGNATURE_KEY_HEADER];
      const signature = message.headers[EVENT_SIGNATURE_HEADER];
      if (!keyId || !signature) return { ok: false, reason: "unsigned", problem: "not signed" };
      const key = byId.get(keyId);
      if (!key) {
        const named = JSON.stringify(keyId.slice(0, 32));
        return { ok: false, reason: "unknown_key", problem: `signed with key ${named}, not an accepted one` };
      }
      const bytes = Buffer.from(signature, "base64url");
      if (bytes.length !== 64 || !verify(null, message.value, key, bytes)) {
        return { ok: false, reason: "bad_signature", problem: "its signature does not verify" };
      }
      return { ok: true };
    },
  };
}

/** The public key of a private key given as base64 PKCS#8 DER, as base64 SPKI DER. */
export function verifyKeyOf(signingKey: string): string {
  return createPublicKey(parseSigningKey(signingKey))
    .export({ format: "der", type: "spki" })
    .toString("base64");
}

/** A fresh key pair in the environment's forms (EVENT_SIGNING_KEY, EVENT_VERIFY_KEYS). */
export function generateEventSigningKeys(): { readonly signingKey: string; readonly verifyKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    signingKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    verifyKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
  };
}
