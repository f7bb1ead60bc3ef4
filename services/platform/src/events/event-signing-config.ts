/**
 * Reads the event signing keys from the environment:
 *   EVENT_SIGNING_KEY  the publisher's (the ledger's) Ed25519 private key, base64 PKCS#8 DER;
 *   EVENT_VERIFY_KEYS  the consumer's (the dispatcher's) accepted public keys, comma-separated base64 SPKI
 *                      DER: the current key and, while keys are rotated, the previous one.
 * In production mode a process refuses to start without the one it needs. Elsewhere a missing value is
 * allowed and fails closed: a publisher without a key publishes unsigned events, which a consumer
 * refuses; a consumer without keys refuses every event.
 */
import { ConfigError, isProductionMode, loadConfig } from "../config/env-config.js";
import {
  createEventSigner,
  createEventVerifier,
  type EventSigner,
  type EventVerifier,
  parseSigningKey,
  parseVerifyKeys,
} from "./event-signature.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The ledger's signer, or undefined (outside production) when EVENT_SIGNING_KEY is not set. */
export function loadEventSigner(env: Env): EventSigner | undefined {
  const { key } = loadConfig(
    {
      key: {
        env: "EVENT_SIGNING_KEY",
        doc: "the Ed25519 private key signing published events, base64 PKCS#8 DER",
        parse: parseSigningKey,
      },
    },
    env,
  );
  if (key === undefined && isProductionMode(env)) {
    throw new ConfigError([
      "EVENT_SIGNING_KEY is required in production: the Ed25519 private key the ledger signs its events with",
    ]);
  }
  return key === undefined ? undefined : createEventSigner(key);
}

/** The dispatcher's verifier; without EVENT_VERIFY_KEYS (outside production) it refuses every event. */
export function loadEventVerifier(env: Env): EventVerifier {
  const { keys } = loadConfig(
    {
      keys: {
        env: "EVENT_VERIFY_KEYS",
        doc: "the Ed25519 public keys of the ledger's event signatures, comma-separated base64 SPKI DER",
        parse: parseVerifyKeys,
      },
    },
    env,
  );
  if (keys !== undefined) return createEventVerifier(keys);
  if (isProductionMode(env)) {
    throw new ConfigError([
      "EVENT_VERIFY_KEYS is required in production: the public keys of the ledger's event signatures",
    ]);
  }
  return { verify: () => ({ ok: false, reason: "no_keys", problem: "no EVENT_VERIFY_KEYS are configured" }) };
}
