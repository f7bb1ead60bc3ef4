import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import { createSecretBox, generateSealingKey, type SecretBox } from "./secret-box.js";

/**
 * The SecretBox of this process. With `WEBHOOK_SECRET_KEY` set, that key. Without it, a key generated on
 * first use and kept in `webhooks.sealing_keys`, shared by every replica on the database: convenient for
 * the embedded sandbox, but a key stored beside the data protects nothing against a reader of the database,
 * so distributed deployments are warned to set the variable.
 */
export function sealingKeyProvider(
  db: Database,
  configuredKey: Buffer | undefined,
  logger: Logger,
  mode: "embedded" | "distributed",
): () => Promise<SecretBox> {
  let box: Promise<SecretBox> | undefined;
  return () => {
    box ??= configuredKey
      ? Promise.resolve(createSecretBox(configuredKey))
      : storedKey(db).then((key) => {
          const stored = createSecretBox(key);
          if (mode === "distributed") {
            logger.warn(
              { key_id: stored.keyId },
              "WEBHOOK_SECRET_KEY is not set: receiver secrets are sealed with a key stored in the database",
            );
          }
          return stored;
        });
    box.catch(() => {
      box = undefined;
    });
    return box;
  };
}

async function storedKey(db: Database): Promise<Buffer> {
  const generated = generateSealingKey();
  await db.query(
    `INSERT INTO webhooks.sealing_keys (key_id, key_base64) VALUES ('default', $1)
     ON CONFLICT (key_id) DO NOTHING`,
    [generated.toString("base64")],
  );
  const res = await db.query<{ key_base64: string }>(
    "SELECT key_base64 FROM webhooks.sealing_keys WHERE key_id = 'default'",
  );
  return Buffer.from(res.rows[0]!.key_base64, "base64");
}
