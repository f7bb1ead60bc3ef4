/**
 * Sealing of the secrets the dispatcher must be able to read back (a receiver's signing secret, its
 * basic-auth password): the platform's SecretBox (AES-256-GCM, bound by associated data to the row and
 * column a value belongs to) under this service's key label, so its key ids are those it always had.
 */
import { randomBytes } from "node:crypto";
import {
  createSecretBox as createLabelledSecretBox,
  SEALING_KEY_BYTES,
  type SecretBox,
} from "@payouts/platform/secrets/secret-box";

export { parseSealingKey, type SecretBox } from "@payouts/platform/secrets/secret-box";

const KEY_LABEL = "payouts-webhook-sealing-key";

/** `WEBHOOK_SECRET_KEY` (32 bytes, see parseSealingKey) or the key kept in the database. */
export function createSecretBox(key: Uint8Array): SecretBox {
  return createLabelledSecretBox(key, KEY_LABEL);
}

export function generateSealingKey(): Buffer {
  return randomBytes(SEALING_KEY_BYTES);
}
